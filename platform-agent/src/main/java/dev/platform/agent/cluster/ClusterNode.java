package dev.platform.agent.cluster;

import dev.platform.api.agent.GkeLabels;

import java.util.List;
import java.util.Map;

/**
 * What the agent reads from a Node: enough to judge its health and place it in its pool.
 * {@code ready} is the status of the Ready condition ("True", "False", "Unknown") or null when absent.
 * Chips are google.com/tpu capacity and allocatable, zero on nodes without TPUs.
 */
public record ClusterNode(
        String name,
        Map<String, String> labels,
        boolean unschedulable,
        List<NodeTaint> taints,
        String ready,
        int chipCapacity,
        int chipAllocatable) {

    public ClusterNode {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** Null for nodes outside any GKE node pool; those are not reported. */
    public String nodePool() {
        return labels.get(GkeLabels.NODE_POOL);
    }
}
