package dev.platform.api.agent;

/** Why a node is not Healthy. Each maps to one Kubernetes or GKE signal, named in the comment. */
public enum NodeHealthReason {
    /** condition Ready is False or Unknown, or the node has no Ready condition. */
    NOT_READY,
    /** taint node.kubernetes.io/not-ready. */
    NOT_READY_TAINT,
    /** taint node.kubernetes.io/unreachable. */
    UNREACHABLE,
    /** taint cloud.google.com/impending-node-termination. */
    IMPENDING_TERMINATION,
    /** any other taint with effect NoExecute. */
    NO_EXECUTE_TAINT,
    /** spec.unschedulable (kubectl cordon). */
    CORDONED,
    /** allocatable google.com/tpu below capacity: the device plugin reports broken chips. */
    UNHEALTHY_CHIPS,
    /** label cloud.google.com/active-node-maintenance: maintenance is under way. */
    MAINTENANCE_ACTIVE,
    /** label cloud.google.com/scheduled-maintenance-time: the only reason that leaves a node Degraded. */
    MAINTENANCE_SCHEDULED
}
