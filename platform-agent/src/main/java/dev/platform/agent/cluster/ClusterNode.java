package dev.platform.agent.cluster;

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

    public static final String NODE_POOL_LABEL = "cloud.google.com/gke-nodepool";
    public static final String ACCELERATOR_LABEL = "cloud.google.com/gke-tpu-accelerator";
    public static final String TOPOLOGY_LABEL = "cloud.google.com/gke-tpu-topology";
    public static final String TPU_RESOURCE = "google.com/tpu";

    public ClusterNode {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = taints == null ? List.of() : List.copyOf(taints);
    }

    /** Null for nodes outside any GKE node pool; those are not reported. */
    public String nodePool() {
        return labels.get(NODE_POOL_LABEL);
    }
}
