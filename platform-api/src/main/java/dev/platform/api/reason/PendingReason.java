package dev.platform.api.reason;

/** Why a workload is still pending after a cycle; answers "why is my job pending". */
public enum PendingReason implements WaitReason {
    /** Quota is short now; the message names resource, flavor and the amount missing. */
    WaitingForQuota,
    /** Victims were chosen; the workload waits for their eviction. */
    WaitingForPreemptedWorkloads,
    /** No flavor matches the workload's node selector, affinity or tolerations. */
    NoMatchingFlavor,
    /** Even an empty cohort could not hold the workload. */
    ExceedsMaxQuota,
    /** The ClusterQueue or LocalQueue has a stopPolicy other than None. */
    QueueStopped,
    /** The ClusterQueue's namespaceSelector does not select the workload's namespace. */
    InadmissibleNamespace,
    /** The workload names a LocalQueue that does not exist. */
    LocalQueueNotFound,
    /** The ClusterQueue does not exist or references a missing flavor. */
    ClusterQueueInactive,
    /** StrictFIFO: another workload at the head of the ClusterQueue cannot be admitted. */
    Blocked,
    /** Quota fits, but no healthy node pool is free for its slices (placement). */
    WaitingForNodePool,
    /**
     * It could preempt, but the workloads it would preempt are within their ClusterQueue's minimum runtime; the
     * message says until when.
     */
    WaitingForMinimumRuntime,
    /** Inactive (Kueue's {@code spec.active: false}, set by its owner or by the leader): kept out of its queue. */
    Deactivated;

    /**
     * The workload cannot be admitted until the configuration changes (its LocalQueue or ClusterQueue is missing,
     * no flavor or not even the whole quota could hold it, its namespace is not selected): as in Kueue's visibility
     * API, it has no position in its queues and counts ahead of no one. A stopped queue's workloads keep theirs: they
     * are admitted in that order once it resumes.
     */
    public boolean inadmissible() {
        return switch (this) {
            case LocalQueueNotFound, ClusterQueueInactive, ExceedsMaxQuota, NoMatchingFlavor, InadmissibleNamespace -> true;
            default -> false;
        };
    }
}
