package dev.platform.scheduler.core.forecast;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * "When will my job start?": runs one cohort tree forward in simulated time three times, with every runtime at
 * its 10th percentile, median and 90th percentile, using the core's own admission cycle (see {@link Simulation}),
 * and reads each pending workload's admission time off each run. Pure and single-threaded: give it a copy of the
 * state made on the scheduling thread ({@link SchedulerState#copyOf}); it copies that again for each run.
 */
public final class Forecaster {

    /** Reasons that no finishing workload can remove: only a configuration change can. */
    private static final Set<PendingReason> PERMANENT = EnumSet.of(PendingReason.ExceedsMaxQuota,
            PendingReason.NoMatchingFlavor, PendingReason.InadmissibleNamespace, PendingReason.QueueStopped,
            PendingReason.LocalQueueNotFound, PendingReason.ClusterQueueInactive);
    private static final int NAMES_SHOWN = 3;

    private final RuntimeModel runtimes;
    private final Duration horizon;

    /** {@code horizon}: how far ahead of now a simulation runs at most. */
    public Forecaster(RuntimeModel runtimes, Duration horizon) {
        this.runtimes = runtimes;
        this.horizon = horizon;
    }

    /**
     * Forecasts of every workload waiting in {@code clusterQueues} (one cohort tree) of {@code tree}, which is left
     * unchanged, within {@code budget} of computing time: half for the median run, a quarter for each other.
     */
    public TreeForecast forecast(SchedulerState tree, Collection<String> clusterQueues, Instant now, Duration budget) {
        long start = System.nanoTime();
        long end = start + budget.toNanos();
        Simulation median = run(tree, clusterQueues, now, Quantile.P50, start + budget.toNanos() / 2);
        Simulation early = run(tree, clusterQueues, now, Quantile.P10, (System.nanoTime() + end) / 2);
        Simulation late = run(tree, clusterQueues, now, Quantile.P90, end);
        Map<String, WorkloadForecast> forecasts = new LinkedHashMap<>();
        for (Workload w : median.waiting) {
            forecasts.put(w.uid(), forecast(w, median, early, late));
        }
        return new TreeForecast(forecasts, median.firstFinish,
                median.outOfTime || early.outOfTime || late.outOfTime);
    }

    private Simulation run(SchedulerState tree, Collection<String> clusterQueues, Instant now, Quantile q,
                           long deadlineNanos) {
        SimulatedClock clock = new SimulatedClock(now);
        Simulation simulation = new Simulation(tree.copyOf(clusterQueues, clock), clock, runtimes, q);
        BooleanSupplier timeIsUp = () -> System.nanoTime() - deadlineNanos >= 0;
        simulation.run(clusterQueues, now.plus(horizon), timeIsUp);
        return simulation;
    }

    private static WorkloadForecast forecast(Workload waiting, Simulation median, Simulation early, Simulation late) {
        String uid = waiting.uid();
        Instant estimate = median.admittedAt.get(uid);
        if (estimate != null) {
            Instant low = early.admittedAt.get(uid);
            Instant high = late.admittedAt.get(uid);
            low = low == null || low.isAfter(estimate) ? estimate : low;
            high = high == null ? null : high.isBefore(estimate) ? estimate : high;
            Map<RuntimeBasis, Integer> before = median.finishedBefore.get(uid);
            return new WorkloadForecast(estimate, low, high, basis(before), admittedMessage(before,
                    median.victims.getOrDefault(uid, List.of()), waiting.namespace()));
        }
        if (median.truncated) {
            return new WorkloadForecast(null, median.reached, null, ForecastBasis.BeyondHorizon,
                    "not admitted within the simulated time, which reached " + median.reached);
        }
        Decision.Pending last = median.state().queueManager().lastPendingDecision(uid).orElse(null);
        boolean permanent = last != null && PERMANENT.contains(last.reason());
        if (!permanent && !median.holdingForever.isEmpty()) {
            return new WorkloadForecast(null, null, null, ForecastBasis.UnknownRuntime,
                    "waits for quota held by workloads whose runtime is unknown (no history, no maximum execution"
                            + " time): " + names(median.holdingForever.values(), waiting.namespace()));
        }
        String why = last == null ? "no cycle admits it" : last.message();
        return new WorkloadForecast(null, null, null, ForecastBasis.NeverFits,
                last != null && last.reason() == PendingReason.ExceedsMaxQuota
                        ? "larger than its ClusterQueue can ever hold (nominal quota plus borrowing limit): " + why
                        : "never admitted as things stand: " + why);
    }

    /** The least precise runtime source among the finishes waited for; QuotaAvailable when there were none. */
    private static ForecastBasis basis(Map<RuntimeBasis, Integer> before) {
        ForecastBasis basis = ForecastBasis.QuotaAvailable;
        for (RuntimeBasis runtime : before.keySet()) {
            ForecastBasis b = ForecastBasis.of(runtime);
            if (b.compareTo(basis) > 0) {
                basis = b;
            }
        }
        return basis;
    }

    private static String admittedMessage(Map<RuntimeBasis, Integer> before, List<Workload> victims, String namespace) {
        int count = before.values().stream().mapToInt(Integer::intValue).sum();
        String when = count == 0 ? "fits in the quota free now"
                : "after " + count + (count == 1 ? " workload" : " workloads") + " in its cohort finish (runtimes: "
                + before.entrySet().stream().map(e -> e.getValue() + " from " + describe(e.getKey()))
                .collect(Collectors.joining(", ")) + ")";
        return victims.isEmpty() ? when : when + ", by preempting " + names(victims, namespace);
    }

    private static String describe(RuntimeBasis basis) {
        return switch (basis) {
            case LocalQueueHistory -> "the history of workloads like them";
            case ClusterQueueHistory -> "their ClusterQueue's history";
            case MaximumExecutionTime -> "their maximum execution time";
            case Unknown -> "no source";
        };
    }

    /**
     * The workloads of {@code namespace}, the forecast workload's own, by name; those of other namespaces only
     * counted: whoever may read a forecast may read its namespace, not necessarily the others.
     */
    private static String names(Collection<Workload> workloads, String namespace) {
        List<Workload> own = workloads.stream().filter(w -> w.namespace().equals(namespace)).toList();
        int others = workloads.size() - own.size();
        List<String> parts = new ArrayList<>();
        own.stream().limit(NAMES_SHOWN).map(Workload::toString).forEach(parts::add);
        int more = own.size() - NAMES_SHOWN;
        if (more > 0) {
            parts.add(more + " more");
        }
        if (others > 0) {
            parts.add(others + (others == 1 ? " workload" : " workloads") + " of other namespaces");
        }
        return parts.size() == 1 ? parts.get(0)
                : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}
