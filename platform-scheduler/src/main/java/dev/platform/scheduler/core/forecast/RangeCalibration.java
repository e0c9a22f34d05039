package dev.platform.scheduler.core.forecast;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * How the forecasts of a cohort tree have fared: for the latest admissions, how long each workload actually waited
 * from a forecast to its admission, over the wait that forecast expected if nothing arrived, beside the forecast's
 * range and estimate on the same scale. A simulation, with arrivals or without, is exact only about what it models;
 * this record is what happened, arrivals, runtimes and everything else included.
 * <p>
 * A forecast's range is widened to the union of its own and a range of the record's ratios ({@link Ratios#widen}):
 * from the record's a-quantile to its (1-a)-quantile, with a the largest tail (the narrowest range) under which the
 * widened ranges of the recorded forecasts would have held {@link #TARGET} of their waits. Where the simulation is
 * right, its ranges already hold them and the record's range shrinks to its median; where it misses, the record's
 * range grows until the union holds 80% again (split conformal prediction, on the ratio of the waits).
 * <p>
 * Only forecasts made more than {@link #LEAD} before their admission count, the ones a range is for; an expected
 * wait under {@link #LEAST_WAIT} counts as that. Single-threaded, like the forecast thread that owns it.
 */
public final class RangeCalibration {

    /** A forecast counts when made at least this long before the admission it forecast. */
    public static final Duration LEAD = Duration.ofMinutes(5);
    /** An expected wait shorter than this is taken as this long, so that a near-zero one gives no huge ratio. */
    static final Duration LEAST_WAIT = Duration.ofMinutes(1);
    /** The share of the recorded waits the widened ranges hold. */
    static final double TARGET = 0.8;
    /** The tails tried, narrowest range first: the record's range from its a- to its (1-a)-quantile. */
    private static final double[] TAILS = {0.5, 0.45, 0.4, 0.35, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05, 0};

    /**
     * One recorded forecast, each time over its expected wait: the actual wait, and the forecast's range and estimate
     * ({@code high} infinite when the range was open).
     */
    private record Wait(double actual, double low, double estimate, double high) {

        boolean heldBy(double recordLow, double recordHigh) {
            double upper = Double.isInfinite(high) ? Math.max(recordHigh, estimate) : Math.max(high, recordHigh);
            return Math.min(low, recordLow) <= actual && actual <= upper;
        }
    }

    private final int kept;
    private final int needed;
    private final Map<String, ArrayDeque<Wait>> waitsByTree = new HashMap<>();
    private final Map<String, Ratios> percentiles = new HashMap<>();

    /**
     * @param kept   waits kept per cohort tree, the latest
     * @param needed waits a tree needs before they widen its forecasts
     */
    public RangeCalibration(int kept, int needed) {
        if (kept < 1 || needed < 1) {
            throw new IllegalArgumentException("kept and needed must be at least 1, were " + kept + " and " + needed);
        }
        this.kept = kept;
        this.needed = needed;
    }

    /**
     * A workload of {@code tree} given {@code forecast} at {@code madeAt} (as simulated, before any widening) was
     * admitted at {@code admittedAt}. Ignored when the forecast was made less than {@link #LEAD} before, or has no
     * estimate or no time if nothing arrives.
     */
    public void admitted(String tree, Instant madeAt, WorkloadForecast forecast, Instant admittedAt) {
        if (Duration.between(madeAt, admittedAt).compareTo(LEAD) <= 0 || !forecast.hasEstimate()
                || forecast.ifNothingArrivesAt() == null || forecast.p10() == null) {
            return;
        }
        double expected = expectedMillis(madeAt, forecast);
        Wait wait = new Wait(Duration.between(madeAt, admittedAt).toMillis() / expected,
                Duration.between(madeAt, forecast.p10()).toMillis() / expected,
                Duration.between(madeAt, forecast.estimatedAdmissionAt()).toMillis() / expected,
                forecast.p90() == null ? Double.POSITIVE_INFINITY
                        : Duration.between(madeAt, forecast.p90()).toMillis() / expected);
        ArrayDeque<Wait> waits = waitsByTree.computeIfAbsent(tree, t -> new ArrayDeque<>());
        if (waits.size() == kept) {
            waits.removeFirst();
        }
        waits.addLast(wait);
        percentiles.remove(tree);
    }

    /** The tree's range of ratios, or {@link Ratios#NONE} while it has fewer than {@code needed} waits. */
    public Ratios ratios(String tree) {
        ArrayDeque<Wait> waits = waitsByTree.get(tree);
        if (waits == null || waits.size() < needed) {
            return Ratios.NONE;
        }
        return percentiles.computeIfAbsent(tree, t -> narrowestHolding(waits));
    }

    private static Ratios narrowestHolding(Collection<Wait> waits) {
        double[] sorted = waits.stream().mapToDouble(Wait::actual).sorted().toArray();
        for (double tail : TAILS) {
            double low = at(sorted, tail);
            double high = at(sorted, 1 - tail);
            long held = waits.stream().filter(w -> w.heldBy(low, high)).count();
            if (held >= TARGET * waits.size()) {
                return new Ratios(waits.size(), low, high);
            }
        }
        throw new IllegalStateException("the whole record's range holds every recorded wait");
    }

    /** How many waits the tree has. */
    public int size(String tree) {
        ArrayDeque<Wait> waits = waitsByTree.get(tree);
        return waits == null ? 0 : waits.size();
    }

    /**
     * The ratio at {@link Forecaster#rank}, as the forecast's runs are read (of 100, the 10th and the 91st; q 0 and 1
     * give the least and the greatest).
     */
    private static double at(double[] sorted, double q) {
        return sorted[Forecaster.rank(sorted.length, q) - 1];
    }

    /** The wait from {@code from} to the time if nothing arrives, at least {@link #LEAST_WAIT}, in milliseconds. */
    private static long expectedMillis(Instant from, WorkloadForecast forecast) {
        return Math.max(Duration.between(from, forecast.ifNothingArrivesAt()).toMillis(), LEAST_WAIT.toMillis());
    }

    /**
     * The record's range of the ratio of actual to expected wait, from {@code low} to {@code high}, chosen over
     * {@code count} waits.
     */
    public record Ratios(int count, double low, double high) {

        /** Too few ratios: widens nothing. */
        public static final Ratios NONE = new Ratios(0, 1, 1);

        /**
         * {@code forecast} made {@code now} with its range widened to the record's: from {@code now} plus the wait
         * if nothing arrives (at least a minute) times {@code low}, to the same times {@code high}. The range only
         * grows, and an open end ("or later") is closed by the record's, never before the estimate. A forecast
         * without an estimate or without a time if nothing arrives is returned as it is.
         */
        public WorkloadForecast widen(Instant now, WorkloadForecast forecast) {
            if (count == 0 || !forecast.hasEstimate() || forecast.ifNothingArrivesAt() == null
                    || forecast.p10() == null) {
                return forecast;
            }
            long expected = expectedMillis(now, forecast);
            Instant early = now.plusMillis(Math.round(expected * low));
            Instant late = now.plusMillis(Math.round(expected * high));
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
