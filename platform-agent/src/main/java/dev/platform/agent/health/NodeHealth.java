package dev.platform.agent.health;

import dev.platform.agent.cluster.ClusterNode;
import dev.platform.agent.cluster.NodeTaint;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Health of one node, judged from the signals GKE gives for TPU nodes. Every reason except a
 * scheduled maintenance makes the node Unhealthy: each one means pods there are, or soon will
 * be, gone or unable to use all chips.
 */
public record NodeHealth(HealthState state, List<NodeHealthReason> reasons) {

    static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
    static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
    static final String IMPENDING_TERMINATION_TAINT = "cloud.google.com/impending-node-termination";
    public static final String SCHEDULED_MAINTENANCE_LABEL = "cloud.google.com/scheduled-maintenance-time";
    static final String ACTIVE_MAINTENANCE_LABEL = "cloud.google.com/active-node-maintenance";

    private static final Set<NodeHealthReason> DEGRADING = EnumSet.of(NodeHealthReason.MAINTENANCE_SCHEDULED);

    public NodeHealth {
        reasons = List.copyOf(reasons);
    }

    public static NodeHealth of(ClusterNode node) {
        Set<NodeHealthReason> reasons = EnumSet.noneOf(NodeHealthReason.class);
        if (!"True".equals(node.ready())) {
            reasons.add(NodeHealthReason.NOT_READY);
        }
        for (NodeTaint taint : node.taints()) {
            NodeHealthReason reason = reasonFor(taint);
            if (reason != null) {
                reasons.add(reason);
            }
        }
        if (node.unschedulable()) {
            reasons.add(NodeHealthReason.CORDONED);
        }
        if (node.chipAllocatable() < node.chipCapacity()) {
            reasons.add(NodeHealthReason.UNHEALTHY_CHIPS);
        }
        if (isSet(node, ACTIVE_MAINTENANCE_LABEL)) {
            reasons.add(NodeHealthReason.MAINTENANCE_ACTIVE);
        }
        if (isSet(node, SCHEDULED_MAINTENANCE_LABEL)) {
            reasons.add(NodeHealthReason.MAINTENANCE_SCHEDULED);
        }
        return new NodeHealth(stateFor(reasons), new ArrayList<>(reasons));
    }

    /** The worst state among the reasons: any non-degrading reason is Unhealthy. */
    static HealthState stateFor(Set<NodeHealthReason> reasons) {
        if (reasons.isEmpty()) {
            return HealthState.HEALTHY;
        }
        return DEGRADING.containsAll(reasons) ? HealthState.DEGRADED : HealthState.UNHEALTHY;
    }

    private static NodeHealthReason reasonFor(NodeTaint taint) {
        return switch (taint.key()) {
            case NOT_READY_TAINT -> NodeHealthReason.NOT_READY_TAINT;
            case UNREACHABLE_TAINT -> NodeHealthReason.UNREACHABLE;
            case IMPENDING_TERMINATION_TAINT -> NodeHealthReason.IMPENDING_TERMINATION;
            default -> NodeTaint.NO_EXECUTE.equals(taint.effect()) ? NodeHealthReason.NO_EXECUTE_TAINT : null;
        };
    }

    /** GKE sets these labels with a value; an empty or "false" value means the signal is off. */
    private static boolean isSet(ClusterNode node, String label) {
        String value = node.labels().get(label);
        return value != null && !value.isBlank() && !"false".equalsIgnoreCase(value);
    }
}
