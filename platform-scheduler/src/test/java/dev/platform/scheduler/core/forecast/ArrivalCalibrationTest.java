package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.LongStream;

import static dev.platform.scheduler.core.CoreFixtures.T0;
import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forecast with arrivals against a known arrival process. A ClusterQueue "team" of 8 cpu, where high-priority
 * work preempts low, gets two classes of work, each a Poisson process after a warm-up burst (three submissions a
 * minute apart, as the replay's trace starts), with runtimes uniform within 20% of the class's median; a
 * ClusterQueue "quiet" has work but no submission history. "Reality" is the core's admission cycle driven by the
 * generated submissions; every 15 minutes of the arrival phase each waiting workload is forecast from the
 * submissions seen so far, and each forecast is compared with the admission that followed it. The submissions go
 * on past the last forecast, so that every admission compared happened under the process the forecast assumed.
 */
class ArrivalCalibrationTest {

    private static final Duration HORIZON = Duration.ofDays(2);
    private static final Duration WARM_UP = Duration.ofHours(2);
    private static final Duration FORECASTS_FOR = Duration.ofHours(10);
    private static final Duration FORECAST_EVERY = Duration.ofMinutes(15);
    private static final Duration LONG_WAIT = Duration.ofMinutes(5);
    private static final double SPREAD = 0.2;
    private static final int BURST = 3;
    private static final int SEEDS = 16;
    /**
     * The p10-p90 range's target coverage, and how far these sixteen replays (19,197 forecasts, correlated: the same
     * few high-priority arrivals decide many of them) may miss it. It is taken over the ranges that name both ends:
     * in this queue, 17% over its quota, 40% of the forecasts have an open one ("p10 or later": the run taken for
     * p90 did not admit the workload within its look-ahead), and 80% of those admissions came at or after p10. The
     * 11,441 closed ranges cover 83%. The estimate's median error over the wait is 36%, against 42% for the time if
     * nothing arrives; the plain median over the runs had 54%. Widened by the leader's record of past waits (from
     * the time it holds 20 of them), the ranges of the 17,622 forecasts made then are all closed and cover 79.8%,
     * an open range counted as a miss: 58 to 63% in the first two hours of the record, when it holds the short waits
     * of a queue whose backlog is still growing, 76 to 89% afterwards.
     */
    private static final double COVERAGE = 0.8;
    private static final double COVERAGE_TOLERANCE = 0.05;

    /** One kind of workload, submitted to its own LocalQueue. */
    private record WorkloadClass(String localQueue, String clusterQueue, int priority, int cpu, Duration median,
                                 Duration meanGap) {
    }

    private record Submission(Instant at, Workload workload, Duration runtime) {
    }

    private record Finish(Instant at, String uid) {
    }

    private record Made(Instant at, String uid, WorkloadForecast forecast) {
    }

    /** A forecast made at {@code madeAt} and the admission that followed. */
    private record Check(Instant madeAt, WorkloadForecast forecast, Instant admittedAt) {

        boolean longWait() {
            return Duration.between(madeAt, admittedAt).compareTo(LONG_WAIT) > 0;
        }

        /** How far {@code estimate} is from the admission, over the wait from the forecast to the admission. */
        double errorOverWait(Instant estimate) {
            return Math.abs(Duration.between(estimate, admittedAt).toMillis())
                    / (double) Duration.between(madeAt, admittedAt).toMillis();
        }

        boolean covered() {
            return !admittedAt.isBefore(forecast.p10()) && !admittedAt.isAfter(forecast.p90());
        }
    }

    /** About the load of the replay's team-a: 117% of the quota, two thirds of it high-priority. */
    private static final List<WorkloadClass> CLASSES = List.of(
            new WorkloadClass("train-high", "team", 100, 4, Duration.ofMinutes(60), Duration.ofMinutes(45)),
            new WorkloadClass("eval-low", "team", 0, 1, Duration.ofMinutes(20), Duration.ofMinutes(5)),
            new WorkloadClass("quiet", "quiet", 0, 4, Duration.ofHours(4), Duration.ofDays(365)));

    /** Each class's runtimes as a history of 21, evenly over the spread. */
    private final RuntimeModel runtimes = (w, cq) -> RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
            LongStream.rangeClosed(-10, 10)
                    .map(i -> Math.round(classOf(w).median().toMillis() * (1 + SPREAD * i / 10.0))).toArray(), null);

    private static WorkloadClass classOf(Workload w) {
        return CLASSES.stream().filter(c -> c.localQueue().equals(w.localQueue())).findFirst().orElseThrow();
    }

    @Test
    void theRangeWithArrivalsCoversTheAdmissionsOfAKnownPoissonProcess() {
        // the replays are independent: one per core, in seed order
        List<List<Check>> replays = LongStream.rangeClosed(1, SEEDS).parallel().mapToObj(seed -> replay(seed, "team"))
                .toList();
        List<Check> checks = replays.stream().flatMap(List::stream).toList();
        List<Check> widened = replays.stream().flatMap(r -> widenedByTheRecord(r).stream()).toList();
        List<Check> widenedLongWaits = widened.stream().filter(Check::longWait).toList();
        double widenedCoverage = widenedLongWaits.stream().filter(c -> c.forecast().p90() != null && c.covered())
                .count() / (double) widenedLongWaits.size();

        List<Check> longWaits = checks.stream().filter(Check::longWait).toList();
        List<Check> closed = longWaits.stream().filter(c -> c.forecast().p90() != null).toList();
        double coverage = closed.stream().filter(Check::covered).count() / (double) closed.size();
        assertThat(longWaits).as("forecasts made more than 5 minutes ahead").hasSizeGreaterThan(500);
        assertThat(longWaits).allSatisfy(c -> assertThat(c.forecast().arrivals())
                .isEqualTo(ArrivalBasis.ArrivalHistory));
        assertThat(closed).as("forecasts whose range names both ends").hasSizeGreaterThan(500);
        assertThat(coverage).as("p10-p90 coverage of the ranges that name both ends")
                .isBetween(COVERAGE - COVERAGE_TOLERANCE, COVERAGE + COVERAGE_TOLERANCE);
        assertThat(widenedLongWaits).as("forecasts made once the record held enough waits").hasSizeGreaterThan(500);
        assertThat(widenedCoverage).as("p10-p90 coverage of the ranges the record widened, an open one a miss")
                .isBetween(COVERAGE - COVERAGE_TOLERANCE, COVERAGE + COVERAGE_TOLERANCE);
        assertThat(medianErrorOverWait(longWaits, c -> c.forecast().estimatedAdmissionAt()))
                .as("median error over the wait, of the estimate against the time if nothing arrives")
                .isLessThan(medianErrorOverWait(longWaits, c -> c.forecast().ifNothingArrivesAt()));
    }

    /**
     * One replay's forecasts with their ranges widened as the leader's record of past waits would have: each
     * admission enters the record when it happens, and each forecast is widened by the record as it was then.
     */
    private static List<Check> widenedByTheRecord(List<Check> checks) {
        RangeCalibration record = new RangeCalibration(100, 20);
        List<Check> byAdmission = checks.stream().sorted(Comparator.comparing(Check::admittedAt)).toList();
        List<Check> widened = new ArrayList<>();
        int admitted = 0;
        for (Check check : checks.stream().sorted(Comparator.comparing(Check::madeAt)).toList()) {
            while (admitted < byAdmission.size() && !byAdmission.get(admitted).admittedAt().isAfter(check.madeAt())) {
                Check done = byAdmission.get(admitted++);
                record.admitted("team", done.madeAt(), done.forecast(), done.admittedAt());
            }
            RangeCalibration.Ratios ratios = record.ratios("team");
            if (ratios.count() > 0) {
                widened.add(new Check(check.madeAt(), ratios.widen(check.madeAt(), check.forecast()),
                        check.admittedAt()));
            }
        }
        return widened;
    }

    private static double medianErrorOverWait(List<Check> checks, Function<Check, Instant> estimate) {
        double[] errors = checks.stream().mapToDouble(c -> c.errorOverWait(estimate.apply(c))).sorted().toArray();
        return errors[errors.length / 2];
    }

    @Test
    void aQueueWithoutSubmissionHistoryGetsTheForecastIfNothingArrives() {
        List<Check> checks = replay(1, "quiet");

        assertThat(checks).isNotEmpty().allSatisfy(c -> {
            assertThat(c.forecast().arrivals()).isEqualTo(ArrivalBasis.NoArrivalHistory);
            assertThat(c.forecast().estimatedAdmissionAt()).isEqualTo(c.forecast().ifNothingArrivesAt());
        });
    }

    /**
     * The submissions of {@code seed} replayed on the core, and the forecasts of the workloads waiting in
     * {@code forecastQueue} with the admission that followed each.
     */
    private List<Check> replay(long seed, String forecastQueue) {
        SimulatedClock clock = new SimulatedClock(T0);
        SchedulerState state = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("default"));
        for (String cq : List.of("team", "quiet")) {
            state.applyClusterQueue(clusterQueue(cq).quota("default", "cpu", "8").preemption(
                    new PreemptionPolicy(WithinClusterQueuePolicy.LowerPriority, null, null, null)).build());
        }
        for (WorkloadClass c : CLASSES) {
            state.applyLocalQueue(new LocalQueueSpec("default", c.localQueue(), c.clusterQueue(), StopPolicy.None));
        }
        ArrivalHistory history = new ArrivalHistory(5);
        Forecaster forecaster = new Forecaster(runtimes, history, HORIZON, 21);
        PriorityQueue<Submission> submissions = submissions(seed);
        Map<String, Duration> runtimeOf = new HashMap<>();
        submissions.forEach(s -> runtimeOf.put(s.workload().uid(), s.runtime()));

        PriorityQueue<Finish> finishes = new PriorityQueue<>(Comparator.comparing(Finish::at)
                .thenComparing(Finish::uid));
        Map<String, Finish> running = new HashMap<>();
        Map<String, List<Instant>> admissions = new HashMap<>();
        List<Made> made = new ArrayList<>();
        Instant lastForecast = T0.plus(FORECASTS_FOR);
        Instant nextForecast = T0.plus(WARM_UP);
        while (!submissions.isEmpty() || !finishes.isEmpty()) {
            Instant now = earliest(submissions.isEmpty() ? null : submissions.peek().at(),
                    finishes.isEmpty() ? null : finishes.peek().at(), nextForecast.isAfter(lastForecast) ? null
                            : nextForecast);
            clock.set(now);
            while (!submissions.isEmpty() && submissions.peek().at().equals(now)) {
                Submission s = submissions.poll();
                state.addPending(s.workload());
                history.record(s.workload(), s.at());
            }
            while (!finishes.isEmpty() && finishes.peek().at().equals(now)) {
                Finish f = finishes.poll();
                running.remove(f.uid());
                state.workloadFinished(f.uid());
            }
            settle(state, now, runtimeOf, finishes, running, admissions);
            if (now.equals(nextForecast)) {
                List<String> queues = List.of(forecastQueue);
                TreeForecast forecast = forecaster.forecast(state.copyOf(queues, clock), queues, now,
                        Duration.ofSeconds(60));
                assertThat(forecast.outOfTime()).isFalse();
                forecast.forecasts().forEach((uid, f) -> {
                    if (f.estimatedAdmissionAt() != null) {
                        made.add(new Made(now, uid, f));
                    }
                });
                nextForecast = now.plus(FORECAST_EVERY);
            }
        }
        List<Check> checks = new ArrayList<>();
        for (Made m : made) {
            admissions.getOrDefault(m.uid(), List.of()).stream().filter(t -> !t.isBefore(m.at())).findFirst()
                    .ifPresent(t -> checks.add(new Check(m.at(), m.forecast(), t)));
        }
        return checks;
    }

    /** Cycles at {@code now} until one changes nothing, as the scheduling loop runs them; evictions requeue at once. */
    private static void settle(SchedulerState state, Instant now, Map<String, Duration> runtimeOf,
                               PriorityQueue<Finish> finishes, Map<String, Finish> running,
                               Map<String, List<Instant>> admissions) {
        while (true) {
            int active = state.queueManager().activePendingCount();
            CycleResult result = AdmissionCycle.run(state);
            for (Decision.Admit a : result.admitted()) {
                String uid = a.workload().uid();
                admissions.computeIfAbsent(uid, k -> new ArrayList<>()).add(now);
                Finish f = new Finish(now.plus(runtimeOf.get(uid)), uid);
                finishes.add(f);
                running.put(uid, f);
            }
            for (Decision.Preempt p : result.preempted()) {
                finishes.remove(running.remove(p.workload().uid()));
                state.evictionCommitted(p.workload().uid());
            }
            if (result.admitted().isEmpty() && result.preempted().isEmpty()
                    && state.queueManager().activePendingCount() == active) {
                return;
            }
        }
    }

    /**
     * Each class's burst at the start, then a Poisson process of its mean gap (in whole minutes) until six hours
     * after the last forecast; each runtime uniform within the spread around the class's median, in whole minutes.
     * The quiet class submits its burst only, too little for a history.
     */
    private static PriorityQueue<Submission> submissions(long seed) {
        PriorityQueue<Submission> submissions = new PriorityQueue<>(Comparator.comparing(Submission::at)
                .thenComparing(s -> s.workload().uid()));
        Random random = new Random(seed);
        Instant end = T0.plus(FORECASTS_FOR).plus(Duration.ofHours(6));
        for (WorkloadClass c : CLASSES) {
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                times.add(T0.plus(Duration.ofMinutes(i)));
            }
            for (Instant t = times.get(BURST - 1).plus(gap(random, c.meanGap())); t.isBefore(end);
                 t = t.plus(gap(random, c.meanGap()))) {
                times.add(t);
            }
            for (int i = 0; i < times.size(); i++) {
                double factor = 1 + SPREAD * (2 * random.nextDouble() - 1);
                long minutes = Math.max(1, Math.round(c.median().toMinutes() * factor));
                submissions.add(new Submission(times.get(i), workload(c.localQueue() + "-" + i).queue(c.localQueue())
                        .priority(c.priority()).request("cpu", String.valueOf(c.cpu())).queuedAt(times.get(i)).build(),
                        Duration.ofMinutes(minutes)));
            }
        }
        return submissions;
    }

    private static Duration gap(Random random, Duration mean) {
        return Duration.ofMinutes(Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * mean.toMinutes())));
    }

    private static Instant earliest(Instant... times) {
        Instant min = null;
        for (Instant t : times) {
            if (t != null && (min == null || t.isBefore(min))) {
                min = t;
            }
        }
        return min;
    }
}
