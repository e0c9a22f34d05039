package dev.platform.scheduler.forecast;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * A generated workload trace for the forecast replay: arrivals of six classes of workloads (a LocalQueue, a
 * priority class and a shape each) over an arrival phase, each with a true runtime drawn uniformly within
 * {@code spread} of its class's median, in whole minutes. Each class first sends {@link #WARM_UP} workloads one
 * minute apart, so that the runtime history knows every class early; the others arrive at random, at about the
 * rate that keeps its ClusterQueue 10 to 25% over capacity, until the arrival phase ends; then the backlog drains.
 */
record ReplayTrace(double spread, Duration arrivalPhase, List<Arrival> arrivals) {

    static final int WARM_UP = 3;

    /**
     * One kind of workload. {@code meanInterArrival}: the mean time between two of its arrivals.
     */
    record WorkloadClass(String name, String localQueue, String priorityClass, int cpu, Duration median,
                         Duration meanInterArrival) {
    }

    /** A workload of {@code workloadClass} submitted {@code at} after the start, running {@code runtime}. */
    record Arrival(String name, WorkloadClass workloadClass, Duration at, Duration runtime) {
    }

    /**
     * team-a and team-b share a cohort (8 cpu each, borrowing from each other); team-c stands alone with 8 cpu.
     * High-priority classes preempt low ones of their own queue.
     */
    static final List<WorkloadClass> CLASSES = List.of(
            new WorkloadClass("a-train-high", "team-a", "high", 4, Duration.ofMinutes(60), Duration.ofMinutes(45)),
            new WorkloadClass("a-eval-low", "team-a", "low", 1, Duration.ofMinutes(20), Duration.ofMinutes(5)),
            new WorkloadClass("b-train-low", "team-b", "low", 2, Duration.ofMinutes(45), Duration.ofMinutes(15)),
            new WorkloadClass("b-sweep-high", "team-b", "high", 2, Duration.ofMinutes(30), Duration.ofMinutes(20)),
            new WorkloadClass("c-batch-low", "team-c", "low", 1, Duration.ofMinutes(90), Duration.ofMinutes(15)),
            new WorkloadClass("c-train-low", "team-c", "low", 4, Duration.ofMinutes(40), Duration.ofMinutes(40)));

    static ReplayTrace generate(long seed, double spread, Duration arrivalPhase) {
        Random random = new Random(seed);
        List<Arrival> arrivals = new ArrayList<>();
        for (WorkloadClass c : CLASSES) {
            int n = 0;
            for (int i = 0; i < WARM_UP; i++) {
                arrivals.add(arrival(c, n++, Duration.ofMinutes(i), spread, random));
            }
            double mean = c.meanInterArrival().toMinutes();
            for (long t = WARM_UP + Math.round(-Math.log(1 - random.nextDouble()) * mean);
                 t < arrivalPhase.toMinutes(); t += Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * mean))) {
                arrivals.add(arrival(c, n++, Duration.ofMinutes(t), spread, random));
            }
        }
        arrivals.sort(Comparator.comparing(Arrival::at).thenComparing(Arrival::name));
        return new ReplayTrace(spread, arrivalPhase, List.copyOf(arrivals));
    }

    private static Arrival arrival(WorkloadClass c, int index, Duration at, double spread, Random random) {
        double factor = 1 + spread * (2 * random.nextDouble() - 1);
        long minutes = Math.max(1, Math.round(c.median().toMinutes() * factor));
        return new Arrival(c.name() + "-" + index, c, at, Duration.ofMinutes(minutes));
    }
}
