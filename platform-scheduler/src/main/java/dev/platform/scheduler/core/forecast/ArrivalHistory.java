package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Submissions seen, per LocalQueue and priority class ({@link ArrivalKey}), and the arrival process each implies.
 * <p>
 * A key has something to say once it has {@code minArrivals} submissions spanning at least {@link #MIN_SPAN};
 * before that it contributes no arrivals. Its rate is then, by the length of its history (first submission kept to
 * now):
 * <ul>
 *     <li>under {@link #DAILY_SPAN}: one overall rate, the submissions after the first of its latest
 *     {@link #RECENT} or in the last {@link #RECENT_SPAN}, whichever is the shorter time, over that time (at least
 *     {@link #MIN_SPAN}), and no more than two submissions per the silence since
 *     the last one (a Poisson process is that silent less than one time in seven), so that a queue gone quiet is
 *     soon expected to stay so;
 *     <li>from {@link #DAILY_SPAN}: a rate per UTC hour of the day, from {@link #WEEKLY_SPAN} per hour of the week:
 *     the submissions in that hour over the hours of that kind observed, each smoothed towards the overall rate
 *     with one hour's weight.
 * </ul>
 * Every sampled arrival copies one of the key's latest {@link #TEMPLATES} submissions, drawn uniformly.
 * <p>
 * Any thread records (the scheduling loop, as it sees submissions: an append to a queue, nothing more); one thread,
 * the forecast's, reads, folding what was recorded into its own state first.
 */
public final class ArrivalHistory implements ArrivalModel {

    public static final Duration MIN_SPAN = Duration.ofHours(1);
    /** How far back the single overall rate looks at most. */
    static final Duration RECENT_SPAN = Duration.ofHours(6);
    public static final Duration DAILY_SPAN = Duration.ofDays(3);
    public static final Duration WEEKLY_SPAN = Duration.ofDays(14);
    /** How far back the history reaches: older submissions are dropped. */
    public static final Duration KEPT = Duration.ofDays(28);
    static final int RECENT = 50;
    static final int TEMPLATES = 100;
    private static final double HOUR_MILLIS = 3_600_000.0;

    private final int minArrivals;
    private final Queue<Submission> recorded = new ConcurrentLinkedQueue<>();
    // Owned by the reading thread.
    private final Map<ArrivalKey, Submissions> byKey = new HashMap<>();

    private record Submission(Workload workload, Instant at) {
    }

    /** One key's submission times, ascending, and its latest workloads. */
    private static final class Submissions {
        long[] times = new long[16];
        int size;
        final ArrayDeque<Workload> templates = new ArrayDeque<>();

        void add(long at, Workload w) {
            if (size == times.length) {
                times = Arrays.copyOf(times, size * 2);
            }
            int i = size;
            while (i > 0 && times[i - 1] > at) {
                times[i] = times[i - 1];
                i--;
            }
            times[i] = at;
            size++;
            templates.addLast(w);
            if (templates.size() > TEMPLATES) {
                templates.removeFirst();
            }
        }

        void dropBefore(long cutoff) {
            int from = 0;
            while (from < size && times[from] < cutoff) {
                from++;
            }
            if (from > 0) {
                System.arraycopy(times, from, times, 0, size - from);
                size -= from;
            }
        }
    }

    public ArrivalHistory(int minArrivals) {
        if (minArrivals < 2) {
            throw new IllegalArgumentException("need minArrivals >= 2");
        }
        this.minArrivals = minArrivals;
    }

    /** {@code workload} was submitted {@code at}. */
    public void record(Workload workload, Instant at) {
        recorded.add(new Submission(workload, at));
    }

    @Override
    public List<ArrivalProcess> processes(Instant now) {
        for (Submission s; (s = recorded.poll()) != null; ) {
            byKey.computeIfAbsent(ArrivalKey.of(s.workload()), k -> new Submissions())
                    .add(s.at().toEpochMilli(), s.workload());
        }
        long cutoff = now.minus(KEPT).toEpochMilli();
        List<ArrivalProcess> processes = new ArrayList<>();
        byKey.values().removeIf(s -> {
            s.dropBefore(cutoff);
            return s.size == 0;
        });
        byKey.forEach((key, submissions) -> {
            ArrivalRate rate = rate(submissions, now.toEpochMilli());
            if (rate != null) {
                processes.add(new ArrivalProcess(key, rate, List.copyOf(submissions.templates)));
            }
        });
        processes.sort(Comparator.comparing((ArrivalProcess p) -> p.key().namespace())
                .thenComparing(p -> p.key().localQueue())
                .thenComparing(p -> String.valueOf(p.key().priorityClassName())));
        return processes;
    }

    /** The key's rate at {@code now}, or null while its history is too short. */
    private ArrivalRate rate(Submissions s, long now) {
        int n = s.size;
        long first = s.times[0];
        long span = now - first;
        if (n < minArrivals || span < MIN_SPAN.toMillis()) {
            return null;
        }
        if (span < DAILY_SPAN.toMillis()) {
            // The window starts at the oldest of the latest RECENT submissions, which is not counted (the gaps
            // after it are), or RECENT_SPAN ago, whichever is later: a burst a queue started with (a few
            // submissions at once, then the usual pace) leaves the estimate once it is that old, as does any
            // change of pace.
            long from = Math.max(s.times[n - Math.min(n, RECENT)], now - RECENT_SPAN.toMillis());
            int count = 0;
            for (int i = n - 1; i >= 0 && s.times[i] > from; i--) {
                count++;
            }
            long window = Math.max(now - from, MIN_SPAN.toMillis());
            double rate = count / (window / HOUR_MILLIS);
            long silence = now - s.times[n - 1];
            if (silence > 0) {
                rate = Math.min(rate, 2 / (silence / HOUR_MILLIS));
            }
            return new ArrivalRate(ArrivalRate.Profile.Overall, new double[]{rate});
        }
        ArrivalRate.Profile profile = span < WEEKLY_SPAN.toMillis() ? ArrivalRate.Profile.HourOfDay
                : ArrivalRate.Profile.HourOfWeek;
        double overall = (n - 1) / (span / HOUR_MILLIS);
        double[] counts = new double[profile.buckets()];
        double[] exposure = new double[profile.buckets()];
        for (int i = 0; i < n; i++) {
            counts[profile.bucket(Instant.ofEpochMilli(s.times[i]))]++;
        }
        Instant hour = Instant.ofEpochMilli(first);
        Instant end = Instant.ofEpochMilli(now);
        while (hour.isBefore(end)) {
            Instant next = hour.truncatedTo(ChronoUnit.HOURS).plus(1, ChronoUnit.HOURS);
            Instant until = next.isAfter(end) ? end : next;
            exposure[profile.bucket(hour)] += Duration.between(hour, until).toMillis() / HOUR_MILLIS;
            hour = next;
        }
        double[] perHour = new double[profile.buckets()];
        for (int b = 0; b < perHour.length; b++) {
            perHour[b] = (counts[b] + overall) / (exposure[b] + 1);
        }
        return new ArrivalRate(profile, perHour);
    }
}
