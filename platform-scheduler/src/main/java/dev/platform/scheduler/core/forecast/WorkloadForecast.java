package dev.platform.scheduler.core.forecast;

import java.time.Instant;

/**
 * When a pending workload is expected to be admitted. {@code estimatedAdmissionAt} comes from the simulation with
 * every runtime at its median, {@code p10} and {@code p90} from the simulations with every runtime at its 10th and
 * 90th percentile; they are null when there is no estimate ({@code p10} then holds the earliest possible time for
 * {@link ForecastBasis#BeyondHorizon}, and {@code p90} is null when the pessimistic run did not reach it).
 */
public record WorkloadForecast(Instant estimatedAdmissionAt, Instant p10, Instant p90, ForecastBasis basis,
                               String message) {

    public boolean hasEstimate() {
        return estimatedAdmissionAt != null;
    }
}
