package dev.platform.agent.health;

import dev.platform.agent.cluster.ClusterNode;
import dev.platform.api.agent.GkeLabels;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Node pools built from the nodes' cloud.google.com/gke-nodepool label. A multi-host TPU slice
 * is atomic, so a pool takes the worst state of its nodes: one Unhealthy node makes the pool
 * Unhealthy.
 */
public final class NodePool {

    private NodePool() {
    }

    /** One report per pool, sorted by pool name, nodes sorted by name; nodes without a pool are left out. */
    public static List<NodePoolReport> aggregate(Collection<ClusterNode> nodes) {
        Map<String, List<ClusterNode>> byPool = new TreeMap<>();
        for (ClusterNode node : nodes) {
            if (node.nodePool() != null) {
                byPool.computeIfAbsent(node.nodePool(), p -> new ArrayList<>()).add(node);
            }
        }
        List<NodePoolReport> pools = new ArrayList<>();
        byPool.forEach((pool, members) -> pools.add(report(pool, members)));
        return pools;
    }

    static NodePoolReport report(String pool, List<ClusterNode> members) {
        List<NodeReport> nodes = members.stream()
                .sorted(Comparator.comparing(ClusterNode::name))
                .map(NodePool::nodeReport)
                .toList();
        Set<NodeHealthReason> reasons = EnumSet.noneOf(NodeHealthReason.class);
        nodes.forEach(n -> reasons.addAll(n.reasons()));
        HealthState state = nodes.stream().map(NodeReport::state).max(Comparator.naturalOrder()).orElse(HealthState.HEALTHY);
        return new NodePoolReport(pool, commonLabel(members, GkeLabels.TPU_ACCELERATOR),
                commonLabel(members, GkeLabels.TPU_TOPOLOGY), state, new ArrayList<>(reasons), nodes);
    }

    private static NodeReport nodeReport(ClusterNode node) {
        NodeHealth health = NodeHealth.of(node);
        return new NodeReport(node.name(), health.state(), health.reasons(), node.chipCapacity(),
                node.chipAllocatable(), node.labels().get(NodeHealth.SCHEDULED_MAINTENANCE_LABEL));
    }

    /** GKE labels every node of a pool alike; take the first node that has the label. */
    private static String commonLabel(List<ClusterNode> members, String label) {
        return members.stream().map(n -> n.labels().get(label)).filter(Objects::nonNull).findFirst().orElse(null);
    }
}
