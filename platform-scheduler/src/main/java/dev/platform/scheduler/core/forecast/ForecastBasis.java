package dev.platform.scheduler.core.forecast;

/**
 * What a workload's forecast rests on. With an estimate: the least precise runtime source among the workloads
 * that finished before it in the simulation ({@link #QuotaAvailable} when none had to). Without one: why not.
 */
public enum ForecastBasis {
    /** It fits in the quota free now: the next cycle admits it. */
    QuotaAvailable,
    /** The runtimes it waits for come from the history of workloads like them (namespace, LocalQueue, priority class, shape). */
    LocalQueueHistory,
    /** Some come from only their ClusterQueue's history. */
    ClusterQueueHistory,
    /** Some are only bounded by their maximum execution time: the estimate is late rather than early. */
    MaximumExecutionTime,
    /** No estimate: it waits for quota held by a workload whose runtime is unknown (no history, no limit). */
    UnknownRuntime,
    /** No estimate: as things stand it can never be admitted; the message says why. */
    NeverFits,
    /** No estimate within the simulated horizon or the time budget: it is admitted after {@code p10} at the earliest. */
    BeyondHorizon,
    /** Not forecast: the simulation does not cover how it is admitted (node pools, no queue); the message says why. */
    NotSimulated;

    /** The forecast basis of waiting for a workload whose runtime comes from {@code runtime}. */
    static ForecastBasis of(RuntimeBasis runtime) {
        return switch (runtime) {
            case LocalQueueHistory -> LocalQueueHistory;
            case ClusterQueueHistory -> ClusterQueueHistory;
            case MaximumExecutionTime -> MaximumExecutionTime;
            case Unknown -> UnknownRuntime;
        };
    }
}
