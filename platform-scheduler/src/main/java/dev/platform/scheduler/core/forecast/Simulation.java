package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.Workload;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * One run of a cohort tree forward in simulated time, each runtime at the quantile its {@link RuntimeDraw} gives,
 * with the future submissions of an {@link ArrivalStream} (none for "if nothing arrives"). The state is a copy
 * (the scheduler's own state is never touched) and every cycle is the core's real one: a simulated cycle admits,
 * preempts and requeues exactly as the scheduler would. Between cycles the clock jumps to the next expected
 * finish or arrival; a finish frees quota as a real finish does, an arrival joins its queue. Committed evictions requeue at once, as the scheduling loop
 * does after committing a cycle.
 */
final class Simulation {

    /** The scheduling loop runs cycles back to back while they make progress; this bounds a run that never settles. */
    static final int MAX_CYCLES_PER_INSTANT = 10_000;

    private record Finish(Instant at, String uid, RuntimeBasis basis) {
    }

    private static final Comparator<Finish> FINISH_ORDER = Comparator.comparing(Finish::at).thenComparing(Finish::uid);

    private final SchedulerState state;
    private final SimulatedClock clock;
    private final RuntimeModel runtimes;
    private final RuntimeDraw draw;
    private final ArrivalStream arrivals;

    private final PriorityQueue<Finish> finishes = new PriorityQueue<>(FINISH_ORDER);
    private final Map<String, Finish> scheduled = new HashMap<>();
    /** Workloads waiting at the start that the run has not admitted yet. */
    private final Set<String> notYetAdmitted = new HashSet<>();
    /** Finishes so far, by runtime basis. */
    private final Map<RuntimeBasis, Integer> finished = new EnumMap<>(RuntimeBasis.class);

    /** First simulated admission of each workload. */
    final Map<String, Instant> admittedAt = new HashMap<>();
    /** For each admitted workload, the finishes (by runtime basis) that came before its admission. */
    final Map<String, Map<RuntimeBasis, Integer>> finishedBefore = new HashMap<>();
    /** Victims of each preemptor's first admission, in decision order. */
    final Map<String, List<Workload>> victims = new HashMap<>();
    /** Workloads that hold quota and never finish in the simulation: their runtime is unknown. */
    final Map<String, Workload> holdingForever = new LinkedHashMap<>();
    /** Workloads waiting when the run starts (victims whose eviction was under way included), in queue order. */
    final List<Workload> waiting = new ArrayList<>();
    /** The earliest finish expected of a workload admitted at the start, or null when none is. */
    Instant firstFinish;
    /** The simulated time reached. */
    Instant reached;
    /** Whether the run stopped at the horizon or out of time, with events still to come. */
    boolean truncated;
    /** Whether it stopped because its time ran out. */
    boolean outOfTime;

    Simulation(SchedulerState state, SimulatedClock clock, RuntimeModel runtimes, RuntimeDraw draw,
               ArrivalStream arrivals) {
        this.state = state;
        this.clock = clock;
        this.runtimes = runtimes;
        this.draw = draw;
        this.arrivals = arrivals;
    }

    SchedulerState state() {
        return state;
    }

    /**
     * Runs until every workload waiting at the start that is in {@code awaited} (all of them when null) is admitted,
     * at the horizon, or when {@code timeIsUp}.
     */
    void run(Collection<String> clusterQueues, Instant horizon, BooleanSupplier timeIsUp, Set<String> awaited) {
        Instant now = clock.instant();
        reached = now;
        for (AdmittedWorkload a : state.admittedRegistry().all()) {
            if (a.evicted()) {
                state.evictionCommitted(a.uid());
            } else {
                RuntimeEstimate estimate = runtimes.estimate(a.workload(), a.clusterQueue());
                Duration elapsed = Duration.between(a.admittedAt(), now);
                Duration total = estimate.known() ? estimate.totalGiven(draw.fraction(a.uid()),
                        elapsed.isNegative() ? Duration.ZERO : elapsed) : Duration.ZERO;
                schedule(a.workload(), estimate, a.admittedAt().plus(total));
            }
        }
        clusterQueues.forEach(cq -> waiting.addAll(state.queueManager().pendingInOrder(cq)));
        waiting.stream().filter(w -> awaited == null || awaited.contains(w.uid()))
                .forEach(w -> notYetAdmitted.add(w.uid()));
        firstFinish = finishes.isEmpty() ? null : finishes.peek().at();
        int cyclesNow = 0;
        while (!timeIsUp.getAsBoolean()) {
            if (notYetAdmitted.isEmpty()) {
                // Every workload waiting at the start has its admission time: later events change none of them.
                return;
            }
            if (cycle()) {
                if (++cyclesNow > MAX_CYCLES_PER_INSTANT) {
                    truncated = true;
                    return;
                }
                continue;
            }
            Instant next = nextEvent();
            if (next == null) {
                return;
            }
            if (next.isAfter(horizon)) {
                truncated = true;
                return;
            }
            advanceTo(next);
            cyclesNow = 0;
        }
        truncated = true;
        outOfTime = true;
    }

    /**
     * One cycle and what follows its commit. True unless it left the state as it was (nothing admitted, preempted or
     * evicted, nothing set aside as inadmissible): the scheduling loop keeps running cycles, so until then the next
     * one, at the same instant, may decide differently (a head holds quota for one cycle only).
     */
    private boolean cycle() {
        int active = state.queueManager().activePendingCount();
        CycleResult result = AdmissionCycle.run(state);
        Instant now = clock.instant();
        for (Decision.Preempt p : result.preempted()) {
            victims.computeIfAbsent(p.preemptor().uid(), k -> new ArrayList<>()).add(p.workload());
        }
        for (Decision.Admit a : result.admitted()) {
            Workload w = a.workload();
            notYetAdmitted.remove(w.uid());
            if (admittedAt.putIfAbsent(w.uid(), now) == null) {
                finishedBefore.put(w.uid(), new EnumMap<>(finished));
            }
            RuntimeEstimate estimate = runtimes.estimate(w, a.admission().clusterQueue());
            schedule(w, estimate, estimate.known() ? now.plus(estimate.total(draw.fraction(w.uid()))) : now);
        }
        for (Decision.Preempt p : result.preempted()) {
            evicted(p.workload());
        }
        for (Decision.Evict e : result.evicted()) {
            evicted(e.workload());
        }
        return !result.admitted().isEmpty() || !result.preempted().isEmpty() || !result.evicted().isEmpty()
                || state.queueManager().activePendingCount() != active;
    }

    private void schedule(Workload w, RuntimeEstimate estimate, Instant end) {
        if (!estimate.known()) {
            holdingForever.put(w.uid(), w);
            return;
        }
        Finish f = new Finish(end, w.uid(), estimate.basis());
        finishes.add(f);
        scheduled.put(w.uid(), f);
    }

    private void evicted(Workload w) {
        Finish f = scheduled.remove(w.uid());
        if (f != null) {
            finishes.remove(f);
        }
        holdingForever.remove(w.uid());
        state.evictionCommitted(w.uid());
    }

    /**
     * The next finish, arrival or end of a minimum runtime a preemptor waits for (it is tried again then, as the
     * scheduling loop does), or null when none is to come.
     */
    private Instant nextEvent() {
        Finish finish = finishes.peek();
        return Stream.of(finish == null ? null : finish.at(), arrivals.peek(), state.nextProtectionEnd().orElse(null))
                .filter(Objects::nonNull).min(Comparator.naturalOrder()).orElse(null);
    }

    private void advanceTo(Instant at) {
        clock.set(at);
        reached = at;
        while (arrivals.peek() != null && !arrivals.peek().isAfter(at)) {
            state.addPending(arrivals.poll());
        }
        while (!finishes.isEmpty() && finishes.peek().at().equals(at)) {
            Finish f = finishes.poll();
            scheduled.remove(f.uid());
            finished.merge(f.basis(), 1, Integer::sum);
            state.workloadFinished(f.uid());
        }
    }
}
