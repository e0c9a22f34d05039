package dev.platform.scheduler.core.forecast;

import java.time.Instant;
import java.util.Map;

/**
 * The forecasts of one cohort tree's pending workloads, by uid. {@code validUntil} is the earliest finish the
 * forecast expects of a workload already admitted (null when it expects none): past it with nothing changed, a
 * workload is running longer than expected and the forecast should be made again. {@code outOfTime} tells that the
 * time budget cut a simulation short: workloads it did not reach are {@link ForecastBasis#BeyondHorizon}.
 */
public record TreeForecast(Map<String, WorkloadForecast> forecasts, Instant validUntil, boolean outOfTime) {

    public TreeForecast {
        forecasts = Map.copyOf(forecasts);
    }
}
