package dev.platform.scheduler.forecast;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Settings of the wait-time forecast ({@code platform.forecast.*}).
 *
 * @param enabled   whether the leader forecasts at all
 * @param interval  the least time between two forecast rounds: a round starts after a scheduling turn once this
 *                  much has passed since the previous round began and that round is done
 * @param budget    computing time of one round; cohort trees it does not reach keep their forecasts, marked stale,
 *                  and go first in the next round
 * @param horizon   how far ahead a simulation looks; later admissions are reported as beyond it
 * @param maxCopied workloads the scheduling thread copies for one round at most (the copy is the only part of a
 *                  round on that thread, about 2 microseconds a workload); trees past it wait for the next round.
 *                  A round copies no more than twice what the previous round got through in its budget
 * @param history   the runtime history
 * @param arrivals  the arrivals expected from the submission history
 * @param calibration how the forecasts fared, which widens their ranges
 */
@ConfigurationProperties("platform.forecast")
public record ForecastProperties(@DefaultValue("true") boolean enabled,
                                 @DefaultValue("5s") Duration interval,
                                 @DefaultValue("1s") Duration budget,
                                 @DefaultValue("7d") Duration horizon,
                                 @DefaultValue("50000") int maxCopied,
                                 @DefaultValue History history,
                                 @DefaultValue Arrivals arrivals,
                                 @DefaultValue Calibration calibration) {

    /**
     * @param samples    runtimes kept per kind of workload (namespace, LocalQueue, priority class, shape) and per
     *                   ClusterQueue, the most recent ones
     * @param minSamples runtimes needed before a history is used
     * @param loadLimit  finished workloads read, most recent first, when a replica takes leadership
     */
    public record History(@DefaultValue("100") int samples,
                          @DefaultValue("3") int minSamples,
                          @DefaultValue("100000") int loadLimit) {
    }

    /**
     * @param runs        Monte Carlo runs with sampled arrivals and runtimes per cohort tree and round, at most
     *                    (within the round's budget); 0 expects no arrivals at all
     * @param minArrivals submissions a LocalQueue and priority class needs (over at least an hour) before arrivals
     *                    are expected of it
     * @param loadLimit   submissions of the last four weeks read, most recent first, when a replica takes leadership
     */
    public record Arrivals(@DefaultValue("0") int runs,
                           @DefaultValue("5") int minArrivals,
                           @DefaultValue("200000") int loadLimit) {
    }

    /**
     * @param waits    waits kept per cohort tree, the latest (each the actual wait from a forecast made more than five
     *                 minutes before the admission, over the time if nothing arrives of that forecast); 0 keeps none
     *                 and widens nothing
     * @param minWaits waits a cohort tree needs before they widen its forecasts' ranges
     */
    public record Calibration(@DefaultValue("100") int waits,
                              @DefaultValue("20") int minWaits) {

        public Calibration {
            if (waits < 0 || minWaits < 1 || waits > 0 && minWaits > waits) {
                throw new IllegalArgumentException("platform.forecast.calibration: waits must be 0 (no record) or"
                        + " more, and min-waits at least 1 and at most waits; were " + waits + " and " + minWaits);
            }
        }
    }
}
