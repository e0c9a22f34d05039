package dev.platform.scheduler.performance;

import java.util.Arrays;

/** Request latencies in milliseconds, recorded from many threads; nearest-rank percentiles. */
final class Latencies {

    private double[] millis = new double[1024];
    private int count;

    synchronized void add(long nanos) {
        if (count == millis.length) {
            millis = Arrays.copyOf(millis, count * 2);
        }
        millis[count++] = nanos / 1e6;
    }

    synchronized int count() {
        return count;
    }

    /** The {@code p}-th percentile (0 < p <= 100) by nearest rank; NaN when nothing was recorded. */
    synchronized double percentile(double p) {
        if (count == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(millis, count);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100 * count);
        return sorted[Math.max(0, rank - 1)];
    }
}
