package dev.platform.scheduler.core.forecast;

/**
 * Where a workload's expected runtime comes from, most specific first: the history of its own kind of workload,
 * then of its ClusterQueue, then only its maximum execution time (an upper bound), else nothing.
 */
public enum RuntimeBasis {
    /** Finished workloads of the same namespace, LocalQueue, priority class and resource shape. */
    LocalQueueHistory,
    /** Finished workloads of the same ClusterQueue. */
    ClusterQueueHistory,
    /** No history: the workload's maximum execution time, which bounds its runtime from above. */
    MaximumExecutionTime,
    /** Neither history nor a limit. */
    Unknown
}
