package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Future submissions sampled from arrival processes, in time order, generated as a simulation asks for them: each
 * process a Poisson process of its (piecewise constant) rate, each arrival a copy of one of the process's recent
 * workloads, queued at its arrival. Sampled workloads have uids that no real workload has.
 */
final class ArrivalStream {

    /** Sampled arrivals' uids start with this; real uids are UUIDs. */
    static final String UID_PREFIX = "expected-arrival-";

    private record Next(Instant at, int process) {
    }

    private final List<ArrivalProcess> processes;
    private final SplittableRandom random;
    private final Instant end;
    private final PriorityQueue<Next> next = new PriorityQueue<>(
            Comparator.comparing(Next::at).thenComparingInt(Next::process));
    private int count;

    /** Arrivals of {@code processes} after {@code from} and no later than {@code end}. */
    ArrivalStream(List<ArrivalProcess> processes, Instant from, Instant end, SplittableRandom random) {
        this.processes = new ArrayList<>(processes);
        this.random = random;
        this.end = end;
        for (int i = 0; i < this.processes.size(); i++) {
            schedule(i, from);
        }
    }

    static ArrivalStream none(Instant from) {
        return new ArrivalStream(List.of(), from, from, new SplittableRandom(0));
    }

    /** When the next arrival comes, or null when none does by the end. */
    Instant peek() {
        Next n = next.peek();
        return n == null ? null : n.at();
    }

    /** The next arrival, as a workload queued at its arrival time. */
    Workload poll() {
        Next n = next.poll();
        ArrivalProcess process = processes.get(n.process());
        Workload template = process.recent().get(random.nextInt(process.recent().size()));
        int index = count++;
        schedule(n.process(), n.at());
        return new Workload(UID_PREFIX + index, template.namespace(), "expected arrival " + index,
                template.localQueue(), template.priority(), n.at(), template.podSets(), template.priorityClassName(),
                template.maximumExecutionTime());
    }

    /** Draws the process's next arrival after {@code from}: exponential gaps, redrawn where the rate changes. */
    private void schedule(int index, Instant from) {
        ArrivalRate rate = processes.get(index).rate();
        Instant t = from;
        while (t.isBefore(end)) {
            double perMilli = rate.perHour(t) / 3_600_000.0;
            Instant change = rate.nextChange(t);
            if (perMilli > 0) {
                double gap = -Math.log(1 - random.nextDouble()) / perMilli;
                Instant at = t.plusMillis(Math.max(1, Math.round(Math.min(gap, 1e15))));
                if (change == null || at.isBefore(change)) {
                    if (!at.isAfter(end)) {
                        next.add(new Next(at, index));
                    }
                    return;
                }
            } else if (change == null) {
                return;
            }
            t = change;
        }
    }
}
