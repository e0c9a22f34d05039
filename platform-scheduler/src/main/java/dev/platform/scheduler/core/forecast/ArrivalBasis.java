package dev.platform.scheduler.core.forecast;

/** Whether a forecast expects workloads not submitted yet. */
public enum ArrivalBasis {
    /**
     * Future submissions to the cohort tree's LocalQueues were sampled from their history: the estimate and the
     * range are over runs with them.
     */
    ArrivalHistory,
    /**
     * No LocalQueue of the cohort tree has enough submission history: the forecast assumes nothing new arrives,
     * and the estimate equals the time "if nothing arrives".
     */
    NoArrivalHistory
}
