package dev.platform.scheduler.core.model;

/** ClusterQueue {@code preemption.reclaimWithinCohort}: preempting borrowers in other ClusterQueues of the cohort. */
public enum ReclaimWithinCohortPolicy {
    Never,
    LowerPriority,
    Any
}
