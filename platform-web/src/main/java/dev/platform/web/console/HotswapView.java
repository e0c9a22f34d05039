package dev.platform.web.console;


import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One hotswap: the pool that failed under a running workload, the victims evicted to
 * make room, the replacement pools, and the MTTR phases detected -> decided -> evictions done ->
 * replacement running (a phase not reached yet is null).
 */
public record HotswapView(long id, String cluster, String nodePool, List<String> nodes, String reason,
                          Party disrupted, List<Party> victims, List<String> replacementPools, String outcome,
                          Instant detectedAt, Instant decidedAt, Instant evictionsDoneAt, Instant runningAt) {

    /** A workload taking part: the disrupted one or a victim. */
    public record Party(String namespace, String name) {
    }

    /**
     * One step of the recovery, from the previous milestone to this one; {@code percent} is its
     * share of the time from detection to the last milestone reached, for the timeline bar.
     */
    public record Phase(String name, Instant from, Instant to, long millis, double percent) {

        public String durationText() {
            return HotswapView.seconds(millis);
        }
    }

    /** Detected to running again, in seconds; null until the replacement runs. */
    public Double mttrSeconds() {
        return runningAt == null ? null : Duration.between(detectedAt, runningAt).toMillis() / 1000.0;
    }

    public String mttrText() {
        return runningAt == null ? null : seconds(Duration.between(detectedAt, runningAt).toMillis());
    }

    /** The phases reached so far, in order: decided, evicted, running. */
    public List<Phase> phases() {
        List<String> names = List.of("decide", "evict", "restart");
        List<Instant> marks = new ArrayList<>();
        marks.add(detectedAt);
        for (Instant mark : new Instant[]{decidedAt, evictionsDoneAt, runningAt}) {
            if (mark == null) {
                break;
            }
            marks.add(mark);
        }
        long total = Duration.between(detectedAt, marks.get(marks.size() - 1)).toMillis();
        List<Phase> phases = new ArrayList<>();
        for (int i = 1; i < marks.size(); i++) {
            long millis = Math.max(0, Duration.between(marks.get(i - 1), marks.get(i)).toMillis());
            double percent = total <= 0 ? 100.0 / (marks.size() - 1) : millis * 100.0 / total;
            phases.add(new Phase(names.get(i - 1), marks.get(i - 1), marks.get(i), millis, percent));
        }
        return phases;
    }

    /** The phases in words, e.g. "decide 0.4 s, evict 2.1 s, restart 1.0 s". */
    public String phasesText() {
        return String.join(", ", phases().stream().map(p -> p.name() + " " + p.durationText()).toList());
    }

    static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
