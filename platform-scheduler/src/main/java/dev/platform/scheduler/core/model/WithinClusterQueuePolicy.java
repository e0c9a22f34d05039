package dev.platform.scheduler.core.model;

/** ClusterQueue {@code preemption.withinClusterQueue}. */
public enum WithinClusterQueuePolicy {
    Never,
    LowerPriority,
    /** Lower priority, or equal priority and queued later than the preemptor. */
    LowerOrNewerEqualPriority
}
