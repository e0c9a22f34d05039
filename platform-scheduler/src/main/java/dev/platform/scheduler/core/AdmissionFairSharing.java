package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import java.time.Duration;
import java.util.Map;

/**
 * Kueue's admission fair sharing settings (Configuration {@code admissionFairSharing}): how fast a LocalQueue's
 * consumed resources forget the past, how often they are sampled, and how much each resource counts. In force for
 * the ClusterQueues whose {@link ClusterQueueSpec#admissionMode()} is {@link AdmissionMode#UsageBasedAdmissionFairSharing}.
 *
 * @param usageHalfLifeTime     after this long, consumed resources count half; zero forgets them at every sample
 * @param usageSamplingInterval how often every LocalQueue's consumed resources take in its admitted usage
 * @param resourceWeights       weight of a resource in the usage score; a resource not listed weighs 1
 */
public record AdmissionFairSharing(Duration usageHalfLifeTime, Duration usageSamplingInterval,
                                   Map<String, Double> resourceWeights) {

    public AdmissionFairSharing {
        if (usageHalfLifeTime == null || usageHalfLifeTime.isNegative()) {
            throw new IllegalArgumentException("usageHalfLifeTime must be zero or more, not " + usageHalfLifeTime);
        }
        if (usageSamplingInterval == null || usageSamplingInterval.isNegative() || usageSamplingInterval.isZero()) {
            throw new IllegalArgumentException("usageSamplingInterval must be above zero, not " + usageSamplingInterval);
        }
        resourceWeights = resourceWeights == null ? Map.of() : Map.copyOf(resourceWeights);
        resourceWeights.forEach((resource, weight) -> {
            if (!(weight >= 0) || weight.isInfinite()) {
                throw new IllegalArgumentException("the weight of " + resource + " must be zero or more, not " + weight);
            }
        });
    }

    /**
     * The share of the present in an exponential moving average over {@code elapsed}: {@code 1 - 0.5^(elapsed /
     * halfLife)} (Kueue's calculateAlphaRate). Zero when the half-life is zero, and for no elapsed time.
     */
    public double alpha(Duration elapsed) {
        if (usageHalfLifeTime.isZero() || elapsed.isNegative() || elapsed.isZero()) {
            return 0;
        }
        return 1 - Math.pow(0.5, (double) elapsed.toNanos() / usageHalfLifeTime.toNanos());
    }

    /**
     * What share of its requests an admitted workload adds to its LocalQueue's usage at once (Kueue's entry penalty):
     * as much as one sampling interval of running would.
     */
    public double entryPenalty() {
        return alpha(usageSamplingInterval);
    }

    public double weight(String resource) {
        return resourceWeights.getOrDefault(resource, 1.0);
    }
}
