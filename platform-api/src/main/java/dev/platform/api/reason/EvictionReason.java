package dev.platform.api.reason;

/** Why an admitted workload was evicted: the reason of its Evicted condition, spelled as Kueue spells it. */
public enum EvictionReason implements WaitReason {
    /** Preempted; the preemption reason says by what rule. */
    Preempted,
    /** Its ClusterQueue was stopped with stopPolicy HoldAndDrain. */
    ClusterQueueStopped,
    /** Its LocalQueue was stopped with stopPolicy HoldAndDrain. */
    LocalQueueStopped,
    /** A node pool under it failed (hotswap), or its START found no healthy pool. */
    NodeFailures,
    /** Its pods were not all ready in time (Kueue's {@code WorkloadEvictedByPodsReadyTimeout}). */
    PodsReadyTimeout,
    /** It was deactivated; the Evicted condition reads {@code DeactivatedDueTo<DeactivationReason>} (Kueue's form). */
    Deactivated,
    /** Ours: its agent could not start it for a reason that may pass (API error, timeout, 5xx, 429, conflict). */
    StartFailed,
    /**
     * Ours: the JobSet its cluster had acknowledged starting is gone from it (deleted by hand, the cluster rebuilt or
     * restarted empty), as a FULL report of that cluster showed.
     */
    JobSetMissing,
    /**
     * An admission check of its ClusterQueue went to Retry (Kueue's {@code WorkloadEvictedByAdmissionCheck}): its
     * quota is released and it queues again after the check's backoff.
     */
    AdmissionCheck
}
