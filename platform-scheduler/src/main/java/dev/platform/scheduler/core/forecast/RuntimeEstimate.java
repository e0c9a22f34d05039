package dev.platform.scheduler.core.forecast;

import java.time.Duration;
import java.util.Arrays;

/**
 * How long a workload holds its quota once admitted: observed runtimes (milliseconds, sorted) and, when the
 * workload has one, its maximum execution time as an upper bound. Quantiles interpolate linearly between
 * samples (PostgreSQL's percentile_cont).
 */
public final class RuntimeEstimate {

    private static final RuntimeEstimate UNKNOWN = new RuntimeEstimate(RuntimeBasis.Unknown, new long[0], null);

    private final RuntimeBasis basis;
    private final long[] sortedMillis;
    private final Duration limit;

    private RuntimeEstimate(RuntimeBasis basis, long[] sortedMillis, Duration limit) {
        this.basis = basis;
        this.sortedMillis = sortedMillis;
        this.limit = limit;
    }

    public static RuntimeEstimate unknown() {
        return UNKNOWN;
    }

    /** Observed runtimes, capped by {@code limit} when it is not null. */
    public static RuntimeEstimate fromHistory(RuntimeBasis basis, long[] runtimesMillis, Duration limit) {
        if (runtimesMillis.length == 0) {
            throw new IllegalArgumentException("a history needs at least one runtime");
        }
        long[] sorted = runtimesMillis.clone();
        Arrays.sort(sorted);
        return new RuntimeEstimate(basis, sorted, limit);
    }

    /** As {@link #fromHistory}, for runtimes already sorted that nobody changes afterwards. */
    static RuntimeEstimate fromSortedHistory(RuntimeBasis basis, long[] sortedMillis, Duration limit) {
        return new RuntimeEstimate(basis, sortedMillis, limit);
    }

    /** Only the maximum execution time is known: every quantile is that bound. */
    public static RuntimeEstimate maximumOnly(Duration limit) {
        return new RuntimeEstimate(RuntimeBasis.MaximumExecutionTime, new long[]{limit.toMillis()}, limit);
    }

    public RuntimeBasis basis() {
        return basis;
    }

    public boolean known() {
        return basis != RuntimeBasis.Unknown;
    }

    /** The runtime at quantile {@code q} of a workload that has not started. */
    public Duration total(Quantile q) {
        return total(q.fraction());
    }

    /** The runtime at quantile {@code fraction} (0 to 1) of a workload that has not started. */
    public Duration total(double fraction) {
        return capped(quantile(sortedMillis, 0, fraction));
    }

    /**
     * The whole runtime at quantile {@code q} of a workload that has already held its quota for {@code elapsed}:
     * the quantile of the runtimes longer than {@code elapsed}, and never less than {@code elapsed} (a workload
     * past every runtime seen so far is expected to end now, not in the past).
     */
    public Duration totalGiven(Quantile q, Duration elapsed) {
        return totalGiven(q.fraction(), elapsed);
    }

    /** As {@link #totalGiven(Quantile, Duration)} at quantile {@code fraction} (0 to 1). */
    public Duration totalGiven(double fraction, Duration elapsed) {
        long done = elapsed.toMillis();
        int from = firstAbove(done);
        long millis = from == sortedMillis.length ? done : capped(quantile(sortedMillis, from, fraction)).toMillis();
        return Duration.ofMillis(Math.max(millis, done));
    }

    private Duration capped(long millis) {
        return Duration.ofMillis(limit == null ? millis : Math.min(millis, limit.toMillis()));
    }

    /** Index of the first runtime longer than {@code millis} (the length when none is). */
    private int firstAbove(long millis) {
        int low = 0;
        int high = sortedMillis.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sortedMillis[mid] > millis) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    private static long quantile(long[] sorted, int from, double fraction) {
        int n = sorted.length - from;
        double position = fraction * (n - 1);
        int low = (int) Math.floor(position);
        int high = (int) Math.ceil(position);
        long a = sorted[from + low];
        long b = sorted[from + high];
        return Math.round(a + (b - a) * (position - low));
    }

    @Override
    public String toString() {
        return basis + (sortedMillis.length == 0 ? "" : " " + Arrays.toString(sortedMillis) + " ms")
                + (limit == null ? "" : " capped at " + limit);
    }
}
