package dev.platform.web.console;

import java.time.Instant;

/**
 * When a pending workload is expected to start, as the scheduler's forecast says: estimate and range (null when
 * there is none), what it rests on ({@code basis}) and why in words, when it was computed and whether it is stale;
 * when it would start if nothing new arrived, and whether the estimate expects arrivals ({@code arrivalBasis}
 * {@code ArrivalHistory}) or not ({@code NoArrivalHistory}: then the two times are one).
 */
public record ForecastView(Instant estimatedAdmissionAt, Instant p10, Instant p90, String basis, String message,
                           Instant computedAt, boolean stale, Instant ifNothingArrivesAt, String arrivalBasis) {

    /** A forecast that expects no arrivals. */
    public ForecastView(Instant estimatedAdmissionAt, Instant p10, Instant p90, String basis, String message,
                        Instant computedAt, boolean stale) {
        this(estimatedAdmissionAt, p10, p90, basis, message, computedAt, stale, estimatedAdmissionAt,
                "NoArrivalHistory");
    }

    /** Whether the estimate expects arrivals, so that the time if nothing arrives is worth showing apart. */
    public boolean expectsArrivals() {
        return "ArrivalHistory".equals(arrivalBasis) && ifNothingArrivesAt != null;
    }

    public boolean hasEstimate() {
        return estimatedAdmissionAt != null;
    }

    /** The headline when there is no estimate. */
    public String withoutEstimateText() {
        return switch (basis) {
            case "NeverFits" -> "Never, as things stand";
            case "UnknownRuntime" -> "No estimate: a runtime it waits for is unknown";
            case "BeyondHorizon" -> "Later than the forecast looks ahead";
            case "NotSimulated" -> "Not forecast";
            default -> "No estimate";
        };
    }

    /** What an estimate rests on, in words. */
    public String basisText() {
        return switch (basis) {
            case "QuotaAvailable" -> "its quota being free now";
            case "LocalQueueHistory" -> "runtimes of similar workloads";
            case "ClusterQueueHistory" -> "runtimes in the ClusterQueue";
            case "MaximumExecutionTime" -> "maximum execution times (upper bounds)";
            default -> basis;
        };
    }
}
