package dev.platform.scheduler.core.forecast;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * "When will my job start?": runs one cohort tree forward in simulated time with the core's own admission cycle
 * (see {@link Simulation}) and reads each pending workload's admission time off each run.
 * <p>
 * The first run assumes nothing new arrives and every runtime is its median: the time "if nothing arrives". When
 * the {@link ArrivalModel} knows the submissions of some of the tree's LocalQueues, a Monte Carlo follows: up to
 * {@code runs} runs, each with arrivals and every runtime sampled (seeded by the tree and the time, so the same
 * state gives the same forecast); the estimate is the admission with the least expected error over the wait
 * ({@link #leastRelativeError}), the range the runs' 10th to 90th percentiles (of 21 runs the 2nd and the 20th,
 * see {@link #runAt}; a run that does not admit the workload within its look-ahead counts as later than all).
 * When it knows none, the forecast is the run without arrivals with its range from two more, every runtime at its
 * 10th and at its 90th percentile. Pure and single-threaded: give it a copy of the state made on the scheduling
 * thread ({@link SchedulerState#copyOf}); it copies that again for each run.
 */
public final class Forecaster {

    private static final int NAMES_SHOWN = 3;
    private static final long MINUTE_MILLIS = 60_000;

    /**
     * A forecast with expected arrivals is made again after this much simulated quiet: arrivals it expected have
     * not come, which changes the forecast even though nothing in the state did.
     */
    static final Duration ARRIVALS_VALID_FOR = Duration.ofMinutes(10);
    /**
     * A run with arrivals looks ahead this many times as far as the last admission without them (at least
     * {@link #LEAST_LOOK_AHEAD}, at most the horizon): where arrivals outpace capacity a workload may never be
     * admitted, and simulating a week of arrivals for it would spend the budget of every other run.
     */
    static final int LOOK_AHEAD_FACTOR = 6;
    static final Duration LEAST_LOOK_AHEAD = Duration.ofHours(2);

    private final RuntimeModel runtimes;
    private final ArrivalModel arrivals;
    private final Duration horizon;
    private final int runs;
    private Instant processesAt;
    private List<ArrivalProcess> processes = List.of();

    /** A forecaster that expects no arrivals. {@code horizon}: how far ahead of now a simulation runs at most. */
    public Forecaster(RuntimeModel runtimes, Duration horizon) {
        this(runtimes, ArrivalModel.NONE, horizon, 0);
    }

    /** {@code runs}: the Monte Carlo runs with sampled arrivals and runtimes at most, in each tree's budget. */
    public Forecaster(RuntimeModel runtimes, ArrivalModel arrivals, Duration horizon, int runs) {
        this.runtimes = runtimes;
        this.arrivals = arrivals;
        this.horizon = horizon;
        this.runs = runs;
    }

    /**
     * Forecasts of every workload waiting in {@code clusterQueues} (one cohort tree) of {@code tree}, which is left
     * unchanged, within {@code budget} of computing time. Without arrivals: half for the median run, a quarter for
     * each other. With arrivals: a quarter at most for the run without them, the rest shared by the Monte Carlo
     * runs; a run out of its share is dropped and ends the Monte Carlo.
     */
    public TreeForecast forecast(SchedulerState tree, Collection<String> clusterQueues, Instant now, Duration budget) {
        long start = System.nanoTime();
        long end = start + budget.toNanos();
        List<ArrivalProcess> expected = expectedIn(tree, clusterQueues, now);
        if (expected.isEmpty()) {
            Simulation median = run(tree, clusterQueues, now, RuntimeDraw.fixed(Quantile.P50), ArrivalStream.none(now),
                    null, start + budget.toNanos() / 2);
            if (drewNoRuntime(median)) {
                // Runtimes at their 10th or 90th percentile would give the same run again.
                return treeForecast(tree, median, median, median);
            }
            Simulation early = run(tree, clusterQueues, now, RuntimeDraw.fixed(Quantile.P10), ArrivalStream.none(now),
                    null, (System.nanoTime() + end) / 2);
            Simulation late = run(tree, clusterQueues, now, RuntimeDraw.fixed(Quantile.P90), ArrivalStream.none(now),
                    null, end);
            return treeForecast(tree, median, early, late);
        }
        Simulation alone = run(tree, clusterQueues, now, RuntimeDraw.fixed(Quantile.P50), ArrivalStream.none(now),
                null, start + budget.toNanos() / 4);
        Set<String> awaited = Set.copyOf(alone.admittedAt.keySet());
        Instant lastAlone = alone.admittedAt.values().stream().max(Instant::compareTo).orElse(now);
        Duration lookAhead = Duration.between(now, lastAlone).multipliedBy(LOOK_AHEAD_FACTOR);
        lookAhead = lookAhead.compareTo(LEAST_LOOK_AHEAD) < 0 ? LEAST_LOOK_AHEAD
                : lookAhead.compareTo(horizon) > 0 ? horizon : lookAhead;
        SplittableRandom seeds = new SplittableRandom(seed(clusterQueues, now));
        List<Simulation> sampled = new ArrayList<>();
        boolean outOfTime = alone.outOfTime;
        for (int i = 0; i < runs && !outOfTime; i++) {
            long left = end - System.nanoTime();
            SplittableRandom random = seeds.split();
            Simulation run = run(tree, clusterQueues, now, now.plus(lookAhead), RuntimeDraw.random(random.split()),
                    new ArrivalStream(expected, now, now.plus(lookAhead), random.split()), awaited,
                    System.nanoTime() + left / (runs - i));
            outOfTime = left <= 0 || run.outOfTime;
            if (!outOfTime) {
                sampled.add(run);
            }
        }
        Map<String, WorkloadForecast> forecasts = new LinkedHashMap<>();
        for (Workload w : alone.waiting) {
            forecasts.put(w.uid(), awaitingChecks(tree, w, alone.admittedAt.containsKey(w.uid())
                    ? withArrivals(w, now, alone, sampled) : forecast(w, alone, alone, alone)));
        }
        Instant refresh = now.plus(ARRIVALS_VALID_FOR);
        Instant validUntil = alone.firstFinish == null || alone.firstFinish.isAfter(refresh) ? refresh
                : alone.firstFinish;
        return new TreeForecast(forecasts, validUntil, outOfTime);
    }

    private static TreeForecast treeForecast(SchedulerState tree, Simulation median, Simulation early,
                                             Simulation late) {
        Map<String, WorkloadForecast> forecasts = new LinkedHashMap<>();
        for (Workload w : median.waiting) {
            forecasts.put(w.uid(), awaitingChecks(tree, w, forecast(w, median, early, late)));
        }
        return new TreeForecast(forecasts, median.firstFinish, median.outOfTime || early.outOfTime || late.outOfTime);
    }

    /**
     * Whether a run used no runtime: a runtime only sets when an admitted workload finishes, and nothing was
     * admitted at its start (none expected to finish) or during it, as in a stopped ClusterQueue's tree.
     */
    private static boolean drewNoRuntime(Simulation run) {
        return run.firstFinish == null && run.admittedAt.isEmpty();
    }

    /** The arrival processes of the tree's LocalQueues; computed once for all trees forecast at one time. */
    private List<ArrivalProcess> expectedIn(SchedulerState tree, Collection<String> clusterQueues, Instant now) {
        if (runs == 0) {
            return List.of();
        }
        if (!now.equals(processesAt)) {
            processes = arrivals.processes(now);
            processesAt = now;
        }
        return processes.stream().filter(p -> {
            LocalQueueSpec lq = tree.configuration().localQueue(p.key().localQueueKey());
            return lq != null && clusterQueues.contains(lq.clusterQueue());
        }).toList();
    }

    /** The same tree at the same time draws the same samples. */
    private static long seed(Collection<String> clusterQueues, Instant now) {
        return now.toEpochMilli() * 1_000_003L + String.join(",", new TreeSet<>(clusterQueues)).hashCode();
    }

    private Simulation run(SchedulerState tree, Collection<String> clusterQueues, Instant now, RuntimeDraw draw,
                           ArrivalStream arrivals, Set<String> awaited, long deadlineNanos) {
        return run(tree, clusterQueues, now, now.plus(horizon), draw, arrivals, awaited, deadlineNanos);
    }

    private Simulation run(SchedulerState tree, Collection<String> clusterQueues, Instant now, Instant until,
                           RuntimeDraw draw, ArrivalStream arrivals, Set<String> awaited, long deadlineNanos) {
        SimulatedClock clock = new SimulatedClock(now);
        Simulation simulation = new Simulation(tree.copyOf(clusterQueues, clock), clock, runtimes, draw, arrivals);
        BooleanSupplier timeIsUp = () -> System.nanoTime() - deadlineNanos >= 0;
        simulation.run(clusterQueues, until, timeIsUp, awaited);
        return simulation;
    }

    /** A workload admitted in the run without arrivals, over the runs with them. */
    private static WorkloadForecast withArrivals(Workload waiting, Instant now, Simulation alone,
                                                 List<Simulation> sampled) {
        String uid = waiting.uid();
        Instant ifNothingArrives = alone.admittedAt.get(uid);
        Map<RuntimeBasis, Integer> before = alone.finishedBefore.get(uid);
        String undisturbed = admittedMessage(before, alone.victims.getOrDefault(uid, List.of()), waiting.namespace());
        if (sampled.isEmpty()) {
            return new WorkloadForecast(ifNothingArrives, ifNothingArrives, null, basis(before), "if nothing arrives: "
                    + undisturbed + "; out of computing time before any run with expected arrivals", ifNothingArrives,
                    ArrivalBasis.NoArrivalHistory);
        }
        List<Instant> times = sampled.stream().map(s -> s.admittedAt.getOrDefault(uid, Instant.MAX)).sorted().toList();
        String overRuns = "over " + times.size() + " runs with the submissions expected from the history";
        if (runAt(times, 0.5).equals(Instant.MAX)) {
            Instant reached = sampled.stream().map(s -> s.reached).min(Instant::compareTo).orElseThrow();
            return new WorkloadForecast(null, reached, null, ForecastBasis.BeyondHorizon,
                    "not admitted within the simulated time in most runs " + overRuns + "; if nothing arrives: "
                            + undisturbed, ifNothingArrives, ArrivalBasis.ArrivalHistory);
        }
        Instant p10 = runAt(times, 0.1);
        Instant p90 = runAt(times, 0.9);
        Instant estimate = leastRelativeError(times, now);
        estimate = estimate.isBefore(p10) ? p10 : estimate.isAfter(p90) ? p90 : estimate;
        return new WorkloadForecast(estimate, p10, p90.equals(Instant.MAX) ? null : p90, basis(before),
                "least error over the wait of " + times.size() + " runs with the submissions expected from the"
                        + " history; if nothing arrives: " + undisturbed,
                ifNothingArrives, ArrivalBasis.ArrivalHistory);
    }

    /**
     * Of the runs' admissions ({@code sorted}, a run that did not admit as {@link Instant#MAX}), the one whose
     * error is least over the wait that follows: the median weighted by one over each run's wait from {@code now}
     * (at least a minute; a run that did not admit weighs nothing). The plain median has the least expected error
     * in minutes; someone waiting judges an error against the wait (ten minutes off a fifteen-minute wait is worse
     * than ten off three hours), and where arrivals spread the runs over hours the plain median sits late.
     */
    static Instant leastRelativeError(List<Instant> sorted, Instant now) {
        double[] weights = new double[sorted.size()];
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            Instant at = sorted.get(i);
            weights[i] = at.equals(Instant.MAX) ? 0
                    : 1 / (double) Math.max(MINUTE_MILLIS, Duration.between(now, at).toMillis());
            total += weights[i];
        }
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            if (sum >= total / 2) {
                return sorted.get(i);
            }
        }
        return sorted.get(sorted.size() - 1);
    }

    /**
     * The run at rank q(n+1), rounded, of n sorted runs: an outcome falls below the k-th of n runs one time in
     * k/(n+1), so that of 21 runs the 2nd is the 10th percentile and the 20th the 90th. (The nearest rank, the
     * 3rd and the 19th, would leave 14% of the outcomes below the range and 14% above it: a coverage of 73%.)
     */
    private static Instant runAt(List<Instant> sorted, double q) {
        return sorted.get(rank(sorted.size(), q) - 1);
    }

    /** The rank q(n+1), rounded, within 1 to n: of n sorted outcomes, the one taken as the q-quantile. */
    static int rank(int n, double q) {
        return Math.min(n, Math.max(1, (int) Math.round(q * (n + 1))));
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
        boolean permanent = last != null && (last.reason().inadmissible()
                || last.reason() == PendingReason.QueueStopped);
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

    /**
     * The forecast of a workload waiting in a stopped ClusterQueue, made without a simulation: no cycle admits it
     * before the ClusterQueue is released, a configuration change after which the forecast is made again.
     */
    public static WorkloadForecast inStoppedQueue(String clusterQueue) {
        return new WorkloadForecast(null, null, null, ForecastBasis.NeverFits,
                "never admitted as things stand: ClusterQueue " + clusterQueue + " is stopped");
    }

    /**
     * A forecast of a workload whose ClusterQueue has admission checks says that its time is when its quota is
     * reserved, and that it then waits for its checks: the simulation cannot know when a check's controller (an
     * approval, a ProvisioningRequest's capacity) will say Ready.
     */
    private static WorkloadForecast awaitingChecks(SchedulerState tree, Workload waiting, WorkloadForecast forecast) {
        LocalQueueSpec lq = tree.configuration().localQueue(waiting.localQueueKey());
        ClusterQueueSpec cq = lq == null ? null : tree.configuration().clusterQueue(lq.clusterQueue());
        if (cq == null || cq.admissionChecks().isEmpty() || forecast.estimatedAdmissionAt() == null) {
            return forecast;
        }
        return new WorkloadForecast(forecast.estimatedAdmissionAt(), forecast.p10(), forecast.p90(), forecast.basis(),
                "quota reserved " + forecast.message() + "; then waits for admission checks ("
                        + String.join(", ", cq.admissionChecks().names()) + ") before it is admitted",
                forecast.ifNothingArrivesAt(), forecast.arrivals());
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
