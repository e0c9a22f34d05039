package dev.platform.scheduler.core.forecast;

import java.time.Instant;

/**
 * When a pending workload is expected to be admitted. With {@link ArrivalBasis#ArrivalHistory},
 * {@code estimatedAdmissionAt} is, of the runs with sampled arrivals and runtimes, the admission with the least
 * expected error over the wait (the median weighted by one over each run's wait), and {@code p10} and {@code p90}
 * the 10th and 90th percentiles of the runs' admissions; with {@link ArrivalBasis#NoArrivalHistory}
 * they come from the runs without arrivals with every runtime at its median, its 10th and its 90th percentile.
 * Either range may then be widened by the cohort tree's record of past waits ({@link RangeCalibration}).
 * {@code ifNothingArrivesAt} is the admission in the run without arrivals, every runtime at its median. The times
 * are null when there is no estimate ({@code p10} then holds the earliest possible time for
 * {@link ForecastBasis#BeyondHorizon}, and {@code p90} is null when the pessimistic runs did not reach it).
 */
public record WorkloadForecast(Instant estimatedAdmissionAt, Instant p10, Instant p90, ForecastBasis basis,
                               String message, Instant ifNothingArrivesAt, ArrivalBasis arrivals) {

    /** A forecast that expects nothing new: the estimate is the time if nothing arrives. */
    public WorkloadForecast(Instant estimatedAdmissionAt, Instant p10, Instant p90, ForecastBasis basis,
                            String message) {
        this(estimatedAdmissionAt, p10, p90, basis, message, estimatedAdmissionAt, ArrivalBasis.NoArrivalHistory);
    }

    public boolean hasEstimate() {
        return estimatedAdmissionAt != null;
    }
}
