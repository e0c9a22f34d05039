package dev.platform.scheduler.core.model;

/** ClusterQueue {@code preemption.borrowWithinCohort.policy}: may the preemptor borrow while reclaiming. */
public enum BorrowWithinCohortPolicy {
    Never,
    LowerPriority
}
