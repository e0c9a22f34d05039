package dev.platform.scheduler.forecast;

import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.forecast.ArrivalHistory;
import dev.platform.scheduler.core.forecast.ForecastBasis;
import dev.platform.scheduler.core.forecast.Forecaster;
import dev.platform.scheduler.core.forecast.RangeCalibration;
import dev.platform.scheduler.core.forecast.RuntimeHistory;
import dev.platform.scheduler.core.forecast.TreeForecast;
import dev.platform.scheduler.core.forecast.WorkloadForecast;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The leader's wait-time forecast. The scheduling loop calls in on its own thread: when it takes or loses
 * leadership, when a workload finishes (the runtime history), and after each turn, when a round may start. A round
 * starts at most every {@code interval}, and only when the previous one is done; the loop thread then copies the
 * cohort trees that changed since they were last forecast (or whose expected finishes have passed), and that copy
 * is all a round costs the loop. The forecast thread simulates the trees, oldest forecast first, within the round's
 * time budget, writes what changed and marks the trees it did not reach as stale.
 */
@Component
public class ForecastService implements DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(ForecastService.class);
    /** The forecast "tree" of workloads whose LocalQueue does not exist: they wait in no ClusterQueue. */
    private static final String NO_LOCAL_QUEUE = "no-local-queue";
    /** A waiting workload's forecast is kept for the calibration at most this often (as the replay reads them)... */
    private static final Duration KEEP_FORECAST_EVERY = Duration.ofMinutes(15);
    /** ...and at most this many per workload: past it every second one goes and the spacing doubles. */
    private static final int FORECASTS_KEPT = 16;
    /** Kept forecasts of a workload no round has forecast for this long are dropped (it was deleted). */
    private static final Duration FORGET_AFTER = Duration.ofHours(1);

    private final ForecastProperties properties;
    private final ForecastStore store;
    private final WorkloadStore workloads;
    private final Clock clock;
    private final Timer roundTimer;
    private final Counter treesForecast;
    private final Counter treesLeftStale;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "forecast");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        return thread;
    });

    /** Bumped at every change of leadership; a round of an earlier one writes nothing more. */
    private volatile long session;
    private volatile RuntimeHistory history;
    private volatile ArrivalHistory arrivals;
    private volatile Forecaster forecaster;
    private volatile RangeCalibration calibration;
    /** Admissions the loop thread saw, for the forecast thread to score the forecasts kept of them. */
    private final Queue<Admission> admissions = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean busy = new AtomicBoolean();
    private final AtomicReference<CompletableFuture<Void>> refresh = new AtomicReference<>();
    /** Each tree's last forecast, written by the forecast thread, read by the loop thread to find what changed. */
    private final Map<String, TreeStatus> trees = new ConcurrentHashMap<>();
    private long lastRoundNanos;
    /** Workloads the previous round got through; the next copies at most twice as many (and at least one tree). */
    private volatile int lastThroughput = Integer.MAX_VALUE / 2;

    // Owned by the forecast thread: what the table holds, to write only what changed.
    private final Map<String, Written> written = new HashMap<>();
    private final Map<String, Set<String>> uidsByTree = new HashMap<>();
    private final Map<String, KeptForecasts> keptByUid = new HashMap<>();
    private Instant lastForgetting = Instant.MIN;

    private record TreeStatus(long session, List<String> clusterQueues, long changeStamp, Instant validUntil,
                              Instant computedAt) {
    }

    private record Written(String tree, ForecastStore.Entry entry) {
    }

    private record Admission(String uid, Instant at) {
    }

    /** A forecast as simulated (without its message), kept until its workload's admission. */
    private record Kept(String tree, Instant madeAt, WorkloadForecast forecast) {
    }

    /** A waiting workload's kept forecasts, evenly spaced over its wait. */
    private static final class KeptForecasts {
        private final List<Kept> kept = new ArrayList<>();
        private Duration every = KEEP_FORECAST_EVERY;
        private Instant lastSeen;

        void offer(String tree, Instant now, WorkloadForecast forecast) {
            lastSeen = now;
            if (!kept.isEmpty() && now.isBefore(kept.get(kept.size() - 1).madeAt().plus(every))) {
                return;
            }
            kept.add(new Kept(tree, now, new WorkloadForecast(forecast.estimatedAdmissionAt(), forecast.p10(),
                    forecast.p90(), forecast.basis(), null, forecast.ifNothingArrivesAt(), forecast.arrivals())));
            if (kept.size() > FORECASTS_KEPT) {
                for (int i = kept.size() - 1; i > 0; i--) {
                    if (i % 2 == 1) {
                        kept.remove(i);
                    }
                }
                every = every.multipliedBy(2);
            }
        }
    }

    /**
     * One tree as the loop thread copied it for a round; the workloads waiting in its stopped ClusterQueues are not
     * in the copy but in {@code waitingInStopped}, by ClusterQueue.
     */
    private record TreeJob(String root, List<String> clusterQueues, SchedulerState copy, long changeStamp,
                           Map<String, String> parkedQueueByUid, Map<String, List<Workload>> waitingInStopped) {
    }

    private record Round(long session, Instant now, List<TreeJob> trees, List<String> staleQueues,
                         Set<String> presentTrees, List<Workload> withoutLocalQueue,
                         CompletableFuture<Void> refreshed) {
    }

    public ForecastService(ForecastProperties properties, ForecastStore store, WorkloadStore workloads, Clock clock,
                           MeterRegistry registry) {
        this.properties = properties;
        this.store = store;
        this.workloads = workloads;
        this.clock = clock;
        this.roundTimer = Timer.builder("platform.forecast.round").description("Computing time of a forecast round")
                .publishPercentileHistogram().register(registry);
        this.treesForecast = Counter.builder("platform.forecast.trees").tag("outcome", "forecast")
                .description("Cohort trees forecast again").register(registry);
        this.treesLeftStale = Counter.builder("platform.forecast.trees").tag("outcome", "stale")
                .description("Cohort trees that changed but were left stale by the time budget").register(registry);
    }

    // ---- called on the scheduling loop's thread

    /**
     * This replica now leads, its state rebuilt from changes up to {@code changeSeq}: the runtime history is read
     * from the workloads finished by then (later finishes come through {@link #finished}) and the submission history
     * from those submitted in the last four weeks (later ones come through {@link #submitted}), before any round.
     */
    public void leadershipTaken(long changeSeq, Function<WorkloadRow, Workload> toCore) {
        if (!properties.enabled()) {
            return;
        }
        long current = ++session;
        trees.clear();
        RuntimeHistory fresh = new RuntimeHistory(properties.history().samples(), properties.history().minSamples());
        history = fresh;
        ArrivalHistory submissions = new ArrivalHistory(properties.arrivals().minArrivals());
        arrivals = submissions;
        forecaster = new Forecaster(fresh, submissions, properties.horizon(), properties.arrivals().runs());
        admissions.clear();
        calibration = properties.calibration().waits() == 0 ? null
                : new RangeCalibration(properties.calibration().waits(), properties.calibration().minWaits());
        worker.execute(() -> {
            written.clear();
            uidsByTree.clear();
            keptByUid.clear();
            if (current != session) {
                return;
            }
            List<WorkloadRow> finished = new ArrayList<>(
                    workloads.finishedForHistory(changeSeq, properties.history().loadLimit()));
            Collections.reverse(finished);
            for (WorkloadRow row : finished) {
                fresh.record(toCore.apply(row), row.clusterQueue(), Duration.between(row.admittedAt(), row.finishedAt()));
            }
            List<WorkloadRow> submitted = properties.arrivals().runs() == 0 ? List.of()
                    : workloads.submittedSince(clock.instant().minus(ArrivalHistory.KEPT), changeSeq,
                    properties.arrivals().loadLimit());
            for (WorkloadRow row : submitted) {
                submissions.record(toCore.apply(row), row.createdAt());
            }
            store.leadershipTaken();
            log.info("forecast history read: {} finished workloads, {} submissions", finished.size(),
                    submitted.size());
        });
    }

    public void leadershipLost() {
        session++;
        trees.clear();
        calibration = null;
        admissions.clear();
    }

    /** A workload that held quota in {@code clusterQueue} for {@code runtime} finished. */
    public void finished(Workload workload, String clusterQueue, Duration runtime) {
        RuntimeHistory current = history;
        if (current != null) {
            current.record(workload, clusterQueue, runtime);
        }
    }

    /** A workload was submitted {@code at} to a LocalQueue (an append to a queue the forecast thread reads). */
    public void submitted(Workload workload, Instant at) {
        ArrivalHistory current = arrivals;
        if (current != null && properties.arrivals().runs() > 0) {
            current.record(workload, at);
        }
    }

    /**
     * A workload was admitted {@code at} (an append to a queue the forecast thread reads): its forecasts kept while
     * it waited go into the record that widens the ranges.
     */
    public void admitted(String uid, Instant at) {
        if (calibration != null) {
            admissions.add(new Admission(uid, at));
        }
    }

    /**
     * After a scheduling turn: starts a round when one is due. {@code settled} tells that the turn found nothing to
     * do; a requested {@link #refresh} waits for such a turn. {@code parkedQueueByUid}: workloads whose quota fitted
     * but that wait for a node pool outside the core's state, with their ClusterQueue.
     */
    public void afterTurn(SchedulerState state, boolean settled, Supplier<Map<String, String>> parkedQueueByUid) {
        if (!properties.enabled() || forecaster == null || busy.get()) {
            return;
        }
        CompletableFuture<Void> requested = refresh.get();
        boolean forced = requested != null && settled;
        if (!forced && System.nanoTime() - lastRoundNanos < properties.interval().toNanos()) {
            return;
        }
        lastRoundNanos = System.nanoTime();
        Round round = capture(state, forced, parkedQueueByUid.get(), forced ? requested : null);
        if (forced) {
            refresh.compareAndSet(requested, null);
        }
        busy.set(true);
        worker.execute(() -> {
            try {
                run(round);
                if (round.refreshed() != null) {
                    round.refreshed().complete(null);
                }
            } catch (RuntimeException e) {
                log.warn("forecast round failed; the next round starts afresh", e);
                trees.clear();
                if (round.refreshed() != null) {
                    round.refreshed().completeExceptionally(e);
                }
            } finally {
                busy.set(false);
            }
        });
    }

    /**
     * Asks for a round over every cohort tree at the next turn that finds nothing to do, whatever the interval; the
     * future completes when its forecasts are written. For tests and replays that need the forecast of a given state.
     */
    public CompletableFuture<Void> refresh() {
        CompletableFuture<Void> next = new CompletableFuture<>();
        CompletableFuture<Void> current = refresh.compareAndExchange(null, next);
        return current == null ? next : current;
    }

    private Round capture(SchedulerState state, boolean everything, Map<String, String> parked,
                          CompletableFuture<Void> refreshed) {
        Instant now = clock.instant();
        Map<String, List<String>> cohortTrees = state.cohortTrees();
        List<Map.Entry<String, List<String>>> due = new ArrayList<>();
        for (Map.Entry<String, List<String>> tree : cohortTrees.entrySet()) {
            if (everything || changed(tree.getKey(), tree.getValue(), state, now)) {
                due.add(tree);
            }
        }
        due.sort(Comparator.comparing(tree -> {
            TreeStatus status = trees.get(tree.getKey());
            return status == null ? Instant.MIN : status.computedAt();
        }));
        List<TreeJob> jobs = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        int copied = 0;
        int limit = (int) Math.min(properties.maxCopied(), 2L * lastThroughput);
        for (Map.Entry<String, List<String>> tree : due) {
            List<String> queues = tree.getValue();
            if (copied > 0 && copied >= limit && !everything) {
                stale.addAll(queues);
                continue;
            }
            Map<String, List<Workload>> waitingInStopped = new HashMap<>();
            for (String cq : queues) {
                if (state.isStopped(cq)) {
                    waitingInStopped.put(cq, state.queueManager().waitingIn(cq));
                }
            }
            SchedulerState copy = state.copyOf(queues, waitingInStopped.keySet(), clock);
            copied += copy.workloadCount();
            Map<String, String> parkedHere = new HashMap<>();
            parked.forEach((uid, cq) -> {
                if (queues.contains(cq)) {
                    parkedHere.put(uid, cq);
                }
            });
            jobs.add(new TreeJob(tree.getKey(), List.copyOf(queues), copy, state.lastChange(queues), parkedHere,
                    waitingInStopped));
        }
        Set<String> present = new HashSet<>(cohortTrees.keySet());
        present.add(NO_LOCAL_QUEUE);
        return new Round(session, now, jobs, stale, present, state.queueManager().workloadsWithoutLocalQueue(),
                refreshed);
    }

    private boolean changed(String root, List<String> queues, SchedulerState state, Instant now) {
        TreeStatus status = trees.get(root);
        return status == null || status.session() != session || !status.clusterQueues().equals(queues)
                || state.lastChange(queues) > status.changeStamp()
                || status.validUntil() != null && now.isAfter(status.validUntil());
    }

    // ---- on the forecast thread

    private void run(Round round) {
        long start = System.nanoTime();
        RangeCalibration record = calibration;
        if (record != null) {
            score(record);
        }
        long deadline = start + properties.budget().toNanos();
        int throughput = 0;
        for (TreeJob job : round.trees()) {
            if (round.session() != session) {
                return;
            }
            // A refresh forecasts every tree, each within the whole budget; a round stops at its deadline.
            long remaining = round.refreshed() != null ? properties.budget().toNanos() : deadline - System.nanoTime();
            if (remaining <= 0) {
                store.markStale(job.clusterQueues());
                treesLeftStale.increment();
                continue;
            }
            TreeForecast forecast = forecaster.forecast(job.copy(), job.clusterQueues(), round.now(),
                    Duration.ofNanos(remaining));
            Map<String, WorkloadForecast> forecasts = record == null ? forecast.forecasts()
                    : calibrated(record, job.root(), forecast.forecasts(), round.now());
            write(job.root(), job.clusterQueues(), entries(job, forecasts), round.now());
            trees.put(job.root(), new TreeStatus(round.session(), job.clusterQueues(), job.changeStamp(),
                    forecast.validUntil(), round.now()));
            treesForecast.increment();
            throughput += job.copy().workloadCount();
        }
        lastThroughput = Math.max(throughput, 1);
        if (round.session() != session) {
            return;
        }
        store.markStale(round.staleQueues());
        Map<String, ForecastStore.Entry> withoutQueue = new LinkedHashMap<>();
        for (Workload w : round.withoutLocalQueue()) {
            withoutQueue.put(w.uid(), new ForecastStore.Entry(null, new WorkloadForecast(null, null, null,
                    ForecastBasis.NeverFits, "never admitted as things stand: LocalQueue " + w.localQueue()
                    + " doesn't exist")));
        }
        write(NO_LOCAL_QUEUE, List.of(), withoutQueue, round.now());
        if (record != null && !round.now().isBefore(lastForgetting.plus(KEEP_FORECAST_EVERY))) {
            lastForgetting = round.now();
            keptByUid.values().removeIf(k -> k.lastSeen.isBefore(round.now().minus(FORGET_AFTER)));
        }
        for (String vanished : new ArrayList<>(uidsByTree.keySet())) {
            if (!round.presentTrees().contains(vanished)) {
                write(vanished, List.of(), Map.of(), round.now());
                uidsByTree.remove(vanished);
            }
        }
        roundTimer.record(Duration.ofNanos(System.nanoTime() - start));
    }

    /** Each admission seen since the last round scores the forecasts kept of its workload. */
    private void score(RangeCalibration record) {
        for (Admission admission = admissions.poll(); admission != null; admission = admissions.poll()) {
            KeptForecasts kept = keptByUid.remove(admission.uid());
            if (kept != null) {
                for (Kept k : kept.kept) {
                    record.admitted(k.tree(), k.madeAt(), k.forecast(), admission.at());
                }
            }
        }
    }

    /**
     * A tree's forecasts with their ranges widened by the record of the tree's past waits; each forecast with a
     * time if nothing arrives is kept (every {@link #KEEP_FORECAST_EVERY} at most) to be scored at its admission.
     */
    private Map<String, WorkloadForecast> calibrated(RangeCalibration record, String tree,
                                                     Map<String, WorkloadForecast> forecasts, Instant now) {
        forecasts.forEach((uid, f) -> {
            if (f.hasEstimate() && f.ifNothingArrivesAt() != null) {
                keptByUid.computeIfAbsent(uid, u -> new KeptForecasts()).offer(tree, now, f);
            }
        });
        RangeCalibration.Ratios ratios = record.ratios(tree);
        if (ratios.count() == 0) {
            return forecasts;
        }
        Map<String, WorkloadForecast> widened = new HashMap<>(forecasts.size() * 2);
        forecasts.forEach((uid, f) -> widened.put(uid, ratios.widen(now, f)));
        return widened;
    }

    /**
     * The tree's forecasts by uid, each with its ClusterQueue, those waiting for a node pool, and those waiting in a
     * stopped ClusterQueue (one entry shared by all of a ClusterQueue's).
     */
    private static Map<String, ForecastStore.Entry> entries(TreeJob job, Map<String, WorkloadForecast> forecasts) {
        Map<String, String> queueOf = new HashMap<>();
        for (String cq : job.clusterQueues()) {
            job.copy().queueManager().waitingIn(cq).forEach(w -> queueOf.put(w.uid(), cq));
        }
        for (AdmittedWorkload a : job.copy().admittedRegistry().all()) {
            if (a.evicted()) {
                queueOf.put(a.uid(), a.clusterQueue());
            }
        }
        Map<String, ForecastStore.Entry> entries = new LinkedHashMap<>();
        forecasts.forEach((uid, f) -> entries.put(uid, new ForecastStore.Entry(queueOf.get(uid), f)));
        job.parkedQueueByUid().forEach((uid, cq) -> entries.put(uid, new ForecastStore.Entry(cq,
                new WorkloadForecast(null, null, null, ForecastBasis.NotSimulated,
                        "its quota fits but it waits for a free node pool, which the forecast does not simulate"))));
        job.waitingInStopped().forEach((cq, waiting) -> {
            ForecastStore.Entry stopped = new ForecastStore.Entry(cq, Forecaster.inStoppedQueue(cq));
            waiting.forEach(w -> entries.put(w.uid(), stopped));
        });
        return entries;
    }

    /**
     * Writes what changed in one tree's forecasts: rows new or different, rows of its workloads no longer waiting
     * (those now forecast in another tree stay), and the tree's ClusterQueues as computed now.
     */
    private void write(String tree, List<String> clusterQueues, Map<String, ForecastStore.Entry> entries, Instant at) {
        Map<String, ForecastStore.Entry> changed = new LinkedHashMap<>();
        entries.forEach((uid, entry) -> {
            Written before = written.get(uid);
            if (before == null || !before.tree().equals(tree) || !Objects.equals(before.entry(), entry)) {
                changed.put(uid, entry);
            }
        });
        List<String> gone = new ArrayList<>();
        for (String uid : uidsByTree.getOrDefault(tree, Set.of())) {
            Written before = written.get(uid);
            if (!entries.containsKey(uid) && before != null && before.tree().equals(tree)) {
                gone.add(uid);
            }
        }
        if (clusterQueues.isEmpty() && changed.isEmpty() && gone.isEmpty()) {
            return;
        }
        store.writeTree(clusterQueues, changed, gone, at);
        gone.forEach(written::remove);
        changed.forEach((uid, entry) -> {
            Written before = written.put(uid, new Written(tree, entry));
            if (before != null && !before.tree().equals(tree)) {
                uidsByTree.getOrDefault(before.tree(), new HashSet<>()).remove(uid);
            }
        });
        // In place: a deep tree's set is not built again on every round.
        Set<String> uids = uidsByTree.computeIfAbsent(tree, t -> new HashSet<>());
        uids.removeIf(uid -> !entries.containsKey(uid));
        uids.addAll(entries.keySet());
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }
}
