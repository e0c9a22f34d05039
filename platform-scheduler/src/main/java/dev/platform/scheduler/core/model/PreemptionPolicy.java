package dev.platform.scheduler.core.model;

/**
 * ClusterQueue {@code preemption}. {@code maxPriorityThreshold} is null when not set: then any candidate of lower
 * priority than the preemptor may be preempted while borrowing.
 */
public record PreemptionPolicy(WithinClusterQueuePolicy withinClusterQueue, ReclaimWithinCohortPolicy reclaimWithinCohort,
                               BorrowWithinCohortPolicy borrowWithinCohort, Integer maxPriorityThreshold) {

    public static final PreemptionPolicy NEVER = new PreemptionPolicy(null, null, null, null);

    public PreemptionPolicy {
        withinClusterQueue = withinClusterQueue == null ? WithinClusterQueuePolicy.Never : withinClusterQueue;
        reclaimWithinCohort = reclaimWithinCohort == null ? ReclaimWithinCohortPolicy.Never : reclaimWithinCohort;
        borrowWithinCohort = borrowWithinCohort == null ? BorrowWithinCohortPolicy.Never : borrowWithinCohort;
    }
}
