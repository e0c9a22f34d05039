package dev.platform.scheduler.core.forecast;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * How the forecasts of a cohort tree have fared: for the latest admissions, how long each workload actually waited
 * from a forecast to its admission, over the wait that forecast expected if nothing arrived. A simulation, with
 * arrivals or without, is exact only about what it models; this record is what happened, arrivals, runtimes and
 * everything else included. Its 10th and 90th percentiles widen a forecast's range ({@link Ratios#widen}) so that
 * the range holds 80% of the waits as they have been, whatever the simulation missed (split conformal prediction,
 * on the ratio of the waits).
 * <p>
 * Only forecasts made more than {@link #LEAD} before their admission count, the ones a range is for; an expected
 * wait under {@link #LEAST_WAIT} counts as that. Single-threaded, like the forecast thread that owns it.
 */
public final class RangeCalibration {

    /** A forecast counts when made at least this long before the admission it forecast. */
    public static final Duration LEAD = Duration.ofMinutes(5);
    /** An expected wait shorter than this is taken as this long, so that a near-zero one gives no huge ratio. */
    static final Duration LEAST_WAIT = Duration.ofMinutes(1);

    private final int kept;
    private final int needed;
    private final Map<String, ArrayDeque<Double>> ratiosByTree = new HashMap<>();
    private final Map<String, Ratios> percentiles = new HashMap<>();

    /**
     * @param kept   ratios kept per cohort tree, the latest
     * @param needed ratios a tree needs before they widen its forecasts
     */
    public RangeCalibration(int kept, int needed) {
        if (kept < 1 || needed < 1) {
            throw new IllegalArgumentException("kept and needed must be at least 1, were " + kept + " and " + needed);
        }
        this.kept = kept;
        this.needed = needed;
    }

    /**
     * A workload of {@code tree} forecast at {@code madeAt}, with its time if nothing arrives then, was admitted at
     * {@code admittedAt}. Ignored when the forecast was made less than {@link #LEAD} before.
     */
    public void admitted(String tree, Instant madeAt, Instant ifNothingArrivesAt, Instant admittedAt) {
        Duration waited = Duration.between(madeAt, admittedAt);
        if (waited.compareTo(LEAD) <= 0) {
            return;
        }
        Duration expected = Duration.between(madeAt, ifNothingArrivesAt);
        if (expected.compareTo(LEAST_WAIT) < 0) {
            expected = LEAST_WAIT;
        }
        ArrayDeque<Double> ratios = ratiosByTree.computeIfAbsent(tree, t -> new ArrayDeque<>());
        if (ratios.size() == kept) {
            ratios.removeFirst();
        }
        ratios.addLast((double) waited.toMillis() / expected.toMillis());
        percentiles.remove(tree);
    }

    /** The tree's percentiles, or {@link Ratios#NONE} while it has fewer than {@code needed} ratios. */
    public Ratios ratios(String tree) {
        ArrayDeque<Double> ratios = ratiosByTree.get(tree);
        if (ratios == null || ratios.size() < needed) {
            return Ratios.NONE;
        }
        return percentiles.computeIfAbsent(tree, t -> {
            double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            return new Ratios(sorted.length, at(sorted, 0.1), at(sorted, 0.9));
        });
    }

    /** How many ratios the tree has. */
    public int size(String tree) {
        ArrayDeque<Double> ratios = ratiosByTree.get(tree);
        return ratios == null ? 0 : ratios.size();
    }

    /** The ratio at rank q(n+1), rounded, as the forecast's runs are read (of 100, the 10th and the 91st). */
    private static double at(double[] sorted, double q) {
        int rank = (int) Math.round(q * (sorted.length + 1));
        return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
    }

    /**
     * The 10th and 90th percentiles of {@code count} ratios of actual to expected wait.
     */
    public record Ratios(int count, double p10, double p90) {

        /** Too few ratios: widens nothing. */
        public static final Ratios NONE = new Ratios(0, 1, 1);

        /**
         * {@code forecast} made {@code now} with its range widened to hold the waits the record expects: from
         * {@code now} plus the time if nothing arrives times each percentile (that time at least a minute away).
         * The range only grows, and an open end ("or later") is closed by the record's. A forecast without an
         * estimate or without a time if nothing arrives is returned as it is.
         */
        public WorkloadForecast widen(Instant now, WorkloadForecast forecast) {
            if (count == 0 || !forecast.hasEstimate() || forecast.ifNothingArrivesAt() == null
                    || forecast.p10() == null) {
                return forecast;
            }
            long expected = Math.max(Duration.between(now, forecast.ifNothingArrivesAt()).toMillis(),
                    LEAST_WAIT.toMillis());
            Instant early = now.plusMillis(Math.round(expected * p10));
            Instant late = now.plusMillis(Math.round(expected * p90));
            Instant p10 = early.isBefore(forecast.p10()) ? early : forecast.p10();
            Instant p90 = forecast.p90() == null ? latest(late, forecast.estimatedAdmissionAt())
                    : latest(late, forecast.p90());
            if (p10.equals(forecast.p10()) && p90.equals(forecast.p90())) {
                return forecast;
            }
            String widened = "range widened to hold 80% of the last " + count
                    + " waits in its cohort against their time if nothing arrives";
            String message = forecast.message() == null ? widened : forecast.message() + "; " + widened;
            return new WorkloadForecast(forecast.estimatedAdmissionAt(), p10, p90, forecast.basis(), message,
                    forecast.ifNothingArrivesAt(), forecast.arrivals());
        }

        private static Instant latest(Instant a, Instant b) {
            return a.isAfter(b) ? a : b;
        }
    }
}
