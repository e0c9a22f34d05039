package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ConfigurationService.ConfigurationChanged;
import dev.platform.scheduler.core.Admission;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.PendingReason;
import dev.platform.scheduler.core.Workload;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.forecast.ForecastService;
import dev.platform.scheduler.hotswap.HotswapStore;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadService.WorkloadsChanged;
import dev.platform.scheduler.workload.WorkloadState;
import dev.platform.scheduler.workload.WorkloadStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The scheduling loop (design §2, Kueue's {@code Scheduler.schedule} driven by its queue
 * manager). One thread per replica; only the leader runs cycles. Each turn:
 * <ol>
 *   <li>keep or take leadership; on taking it, rebuild the core's state from PostgreSQL;</li>
 *   <li>read what changed since the last turn (configuration, the workload change feed);</li>
 *   <li>run one core cycle;</li>
 *   <li>commit its decisions in one transaction, fenced by the leader epoch;</li>
 *   <li>write the LocalQueue usage the turn changed ({@link LocalQueueUsageSync}, admission fair sharing);</li>
 *   <li>undo in the state what lost a race; requeue evicted victims (quota-only operation);</li>
 *   <li>when a forecast round is due, copy the cohort trees that changed for it ({@link ForecastService});</li>
 *   <li>wait for a change, a poll interval or the tick.</li>
 * </ol>
 */
@Component
public class SchedulingLoop implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(SchedulingLoop.class);
    private static final int FEED_BATCH = 5000;

    private final SchedulingProperties properties;
    private final ConfigStore config;
    private final WorkloadStore workloads;
    private final DecisionWriter writer;
    private final JdbcClient jdbc;
    private final Clock clock;
    private final SchedulerLeadership leadership;
    private final SchedulingMetrics metrics;
    private final Duration staleness;
    private final Duration hotswapGrace;
    private final HotswapWriter hotswapWriter;
    private final HotswapStore hotswaps;
    private final ForecastService forecasts;
    private final LocalQueueUsageSync localQueueUsage;

    private final ReentrantLock wakeLock = new ReentrantLock();
    private final Condition wakeUp = wakeLock.newCondition();
    private boolean woken;
    private final ConcurrentLinkedQueue<QuiescedTask> quiescedTasks = new ConcurrentLinkedQueue<>();

    private volatile boolean running;
    private volatile boolean leading;
    private Thread thread;

    // State owned by the loop thread.
    private SchedulerState state;
    private long lastChangeSeq;
    /** Version of every workload as the state knows it; a feed row with the same version is already reflected. */
    private final Map<String, Long> versions = new HashMap<>();
    /** Workloads the state holds as pending (the others in {@link #versions} hold quota). */
    private final Set<String> pending = new HashSet<>();
    /** The latest row of every active workload: what placement needs beyond the core's view. */
    private final Map<String, WorkloadRow> rows = new HashMap<>();
    /**
     * Workloads whose quota fitted but no node pool did: parked outside the core until the
     * inventory changes (placement's inadmissible set).
     */
    private final Map<String, Workload> waitingForNodePool = new HashMap<>();
    private final ConfigurationMirror configuration;
    private NodePoolPlacement placement;
    /** Workloads without a queue name: no quota, so not the core's. */
    private PriorityOnlyPlacement priorityOnly;
    private HotswapDetector hotswapDetector;

    public SchedulingLoop(SchedulingProperties properties, ConfigStore config, WorkloadStore workloads,
                          DecisionWriter writer, JdbcClient jdbc, DataSource dataSource, Clock clock,
                          SchedulingMetrics metrics,
                          @Value("${platform.agents.staleness:30s}") Duration staleness,
                          @Value("${platform.hotswap.grace:5s}") Duration hotswapGrace,
                          HotswapWriter hotswapWriter, HotswapStore hotswaps, ForecastService forecasts,
                          LocalQueueUsageSync localQueueUsage) {
        this.properties = properties;
        this.config = config;
        this.workloads = workloads;
        this.writer = writer;
        this.jdbc = jdbc;
        this.clock = clock;
        this.metrics = metrics;
        this.staleness = staleness;
        this.hotswapGrace = hotswapGrace;
        this.hotswapWriter = hotswapWriter;
        this.hotswaps = hotswaps;
        this.forecasts = forecasts;
        this.localQueueUsage = localQueueUsage;
        this.configuration = new ConfigurationMirror(config, jdbc);
        this.leadership = new SchedulerLeadership(dataSource, ManagementFactory.getRuntimeMXBean().getName()
                + "/" + UUID.randomUUID().toString().substring(0, 8), properties.leaderLease());
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
    void onWorkloadsChanged(WorkloadsChanged event) {
        wake();
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
    void onConfigurationChanged(ConfigurationChanged event) {
        wake();
    }

    /** Asks for a turn as soon as possible. */
    public void wake() {
        wakeLock.lock();
        try {
            woken = true;
            wakeUp.signalAll();
        } finally {
            wakeLock.unlock();
        }
    }

    /**
     * Whether this replica led the last turn. Read from any thread; only the loop thread touches
     * the leadership connection (a JDBC connection is not for concurrent use).
     */
    public boolean isLeader() {
        return leading;
    }

    /**
     * Runs {@code task} on the loop thread between cycles, then rebuilds the state from the
     * database: for maintenance that rewrites tables behind the loop's back. Runs inline when
     * the loop is not running.
     */
    public CompletableFuture<Void> quiesced(Runnable task) {
        QuiescedTask quiesced = new QuiescedTask(task, new CompletableFuture<>());
        if (!running) {
            quiesced.run();
            quiesced.done().complete(null);
            return quiesced.done();
        }
        quiescedTasks.add(quiesced);
        wake();
        return quiesced.done();
    }

    /** Maintenance to run between cycles; {@code done} completes once the state is rebuilt after it. */
    private record QuiescedTask(Runnable task, CompletableFuture<Void> done) {
        boolean run() {
            try {
                task.run();
                return true;
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
                return false;
            }
        }
    }

    @Override
    public void start() {
        if (!properties.enabled()) {
            log.info("scheduling loop disabled (platform.scheduler.enabled=false): this replica serves the API only");
            return;
        }
        running = true;
        thread = new Thread(this::run, "scheduling-loop");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        wake();
        if (thread != null) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        leading = false;
        state = null;
        forecasts.leadershipLost();
        leadership.release();
        runQuiescedTasks();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            try {
                runQuiescedTasks();
                if (!ensureLeadership()) {
                    await(properties.leaderRetry().toMillis());
                    continue;
                }
                boolean changed = readChanges();
                changed |= hotswapDetector.run(leadership.epoch(), rows::get, this::mirrorHotswap);
                changed |= placePriorityOnly();
                long cycleStarted = System.nanoTime();
                CycleResult result = state.runCycle();
                boolean progressed = !result.admitted().isEmpty() || !result.preempted().isEmpty()
                        || !result.evicted().isEmpty();
                if (!result.isEmpty()) {
                    commit(result);
                    metrics.cycle(!result.admitted().isEmpty(), Duration.ofNanos(System.nanoTime() - cycleStarted));
                }
                publishPendingCounts();
                localQueueUsage.persist(state, leadership.epoch());
                forecasts.afterTurn(state, !progressed && !changed, this::parkedQueues);
                if (!progressed && !changed) {
                    await(properties.pollInterval().toMillis());
                }
            } catch (DecisionWriter.LeadershipLost e) {
                log.warn("stepping down: {}", e.getMessage());
                stepDown();
            } catch (RuntimeException e) {
                log.error("scheduling turn failed; the state is rebuilt from the database", e);
                leading = false;
                state = null;
                await(properties.leaderRetry().toMillis());
            }
        }
    }

    private boolean ensureLeadership() {
        if (state != null && leadership.holds()) {
            leading = true;
            return true;
        }
        if (state != null) {
            stepDown();
        }
        if (!leadership.holds() && !leadership.tryAcquire()) {
            return false;
        }
        rebuild();
        leading = true;
        return true;
    }

    private void stepDown() {
        leading = false;
        state = null;
        forecasts.leadershipLost();
        leadership.release();
        metrics.pendingCounts(Map.of());
    }

    /** Kueue's pending gauge: the core's queues, plus what waits for a node pool outside the core (inadmissible). */
    private void publishPendingCounts() {
        Map<String, SchedulerState.PendingCounts> counts = new HashMap<>(state.pendingCounts());
        waitingForNodePool.keySet().forEach(uid -> {
            WorkloadRow row = rows.get(uid);
            if (row != null && row.clusterQueue() != null) {
                counts.merge(row.clusterQueue(), new SchedulerState.PendingCounts(0, 1),
                        (a, b) -> a.plusInadmissible(b.inadmissible()));
            }
        });
        metrics.pendingCounts(counts);
    }

    /** Kueue's cache rebuilt from the source of truth. */
    private void rebuild() {
        state = new SchedulerState(clock, properties.schedulerSettings());
        versions.clear();
        pending.clear();
        rows.clear();
        waitingForNodePool.clear();
        placement = new NodePoolPlacement(jdbc, clock, staleness);
        priorityOnly = new PriorityOnlyPlacement(placement, writer, configuration.flavorLabels(),
                configuration.nonPreemptingClasses());
        hotswapDetector = new HotswapDetector(jdbc, clock, hotswapGrace, placement, hotswapWriter,
                configuration.flavorLabels());
        placement.reloadInventory();
        configuration.reset();
        lastChangeSeq = workloads.latestChange();
        reloadConfiguration();
        localQueueUsage.restore(state, leadership.epoch());
        List<WorkloadRow> active = workloads.active();
        active.forEach(this::reconcile);
        active.stream().filter(r -> r.state().holdsQuota() || r.state() == WorkloadState.Evicted)
                .forEach(placement::restore);
        forecasts.leadershipTaken(lastChangeSeq, CoreMapping::workload);
        log.info("scheduler state rebuilt: {} active workloads, change feed at {}", active.size(), lastChangeSeq);
    }

    /** Applies what changed since the last turn; true when anything did. */
    private boolean readChanges() {
        boolean changed = reloadConfiguration();
        if (placement.reloadInventory()) {
            // Kueue requeues inadmissible workloads on events that may admit them: a pool healed or appeared.
            waitingForNodePool.values().forEach(w -> {
                state.addPending(w);
                pending.add(w.uid());
            });
            waitingForNodePool.clear();
            state.requeueInadmissible();
            placeQuotaOnlyAdmissions();
            changed = true;
        }
        List<WorkloadRow> rows;
        do {
            rows = workloads.changedSince(lastChangeSeq, FEED_BATCH);
            for (WorkloadRow row : rows) {
                reconcile(row);
                lastChangeSeq = row.changeSeq();
            }
            changed |= !rows.isEmpty();
        } while (rows.size() == FEED_BATCH);
        // A configuration change committed before a workload in the feed must be in force when that workload
        // is decided (a LocalQueue stopped, then a workload submitted to it): the first check may have run
        // before the change committed, this one runs after the feed read that saw the workload.
        changed |= reloadConfiguration();
        return changed;
    }

    private boolean reloadConfiguration() {
        if (!configuration.refresh(state)) {
            return false;
        }
        priorityOnly.retry();
        return true;
    }

    /** A workload without a queue: tracked for placement by priority only; the core never sees it. */
    private void reconcilePriorityOnly(String uid, WorkloadRow row) {
        priorityOnly.track(row);
        if (!row.state().holdsQuota() && row.state() != WorkloadState.Evicted) {
            placement.slices().release(uid);
        }
        if (row.state().isTerminal()) {
            versions.remove(uid);
            rows.remove(uid);
        } else {
            versions.put(uid, row.version());
        }
    }

    /**
     * Priority-only mode: places what it can (see {@link PriorityOnlyPlacement}) and mirrors the
     * victims' evictions in the state. Returns whether anything was admitted.
     */
    private boolean placePriorityOnly() {
        List<PriorityOnlyPlacement.Admitted> admitted = priorityOnly.place(leadership.epoch(), rows::get);
        for (PriorityOnlyPlacement.Admitted a : admitted) {
            versions.put(a.workload().uid().toString(), a.version());
            versions.putAll(a.victimVersions());
            a.victims().forEach(this::evicted);
            a.victims().forEach(v -> metrics.victim(null, "PriorityPreemption", v));
            DecisionLog.priorityOnly(a.workload().namespace(), a.workload().name(), a.workload().cluster(),
                    a.victims().size());
        }
        return !admitted.isEmpty();
    }

    private String clusterOf(String uid) {
        WorkloadRow row = rows.get(uid);
        return row == null ? null : row.cluster();
    }

    private String priorityClassOf(String uid) {
        WorkloadRow row = rows.get(uid);
        return row == null ? null : row.priorityClassName();
    }

    /** A workload evicted outside the core's cycle (hotswap or priority-only victim): its quota and pools go. */
    private void evicted(WorkloadRow victim) {
        String uid = victim.uid().toString();
        state.workloadFinished(uid);
        placement.slices().release(uid);
        requeue(victim, CoreMapping.workload(victim));
    }

    /** A workload back in waiting after an eviction: into its queue, or to priority-only placement. */
    private void requeue(WorkloadRow row, Workload workload) {
        if (row != null && row.queueName() == null) {
            priorityOnly.requeue(row.uid().toString());
            return;
        }
        state.addPending(workload);
        pending.add(workload.uid());
    }

    /** Brings the state in line with one row of the change feed. */
    private void reconcile(WorkloadRow row) {
        String uid = row.uid().toString();
        WorkloadRow previous = rows.put(uid, row);
        if (row.state() == WorkloadState.Running && previous != null && previous.state() != WorkloadState.Running) {
            hotswaps.running(row.uid(), clock.instant()).ifPresent(metrics::hotswapRecovered);
        }
        Long known = versions.get(uid);
        if (known != null && known == row.version()) {
            return;
        }
        if (row.queueName() == null) {
            reconcilePriorityOnly(uid, row);
            return;
        }
        boolean parked = waitingForNodePool.remove(uid) != null;
        boolean wasPending = pending.remove(uid) || parked;
        boolean held = known != null && !wasPending;
        if (wasPending && !parked) {
            state.removePending(uid);
        }
        if (!row.state().holdsQuota() && row.state() != WorkloadState.Evicted) {
            placement.slices().release(uid);
        }
        switch (row.state()) {
            case Pending -> {
                if (held) {
                    state.workloadFinished(uid);
                }
                state.addPending(CoreMapping.workload(row));
                pending.add(uid);
                versions.put(uid, row.version());
            }
            case Admitted, Running, Evicted -> {
                if (!held && row.admission() != null) {
                    state.addAdmitted(CoreMapping.workload(row), CoreMapping.admission(row.admission()),
                            row.admittedAt());
                }
                versions.put(uid, row.version());
            }
            case Finished, Failed -> {
                if (held) {
                    state.workloadFinished(uid);
                    if (row.state() == WorkloadState.Finished && row.admittedAt() != null && row.finishedAt() != null) {
                        forecasts.finished(CoreMapping.workload(row), row.clusterQueue(),
                                Duration.between(row.admittedAt(), row.finishedAt()));
                    }
                }
                versions.remove(uid);
                rows.remove(uid);
            }
        }
    }

    private void commit(CycleResult cycle) {
        Map<String, DecisionWriter.Placed> placements = new HashMap<>();
        CycleResult result = place(cycle, placements);
        if (result.isEmpty()) {
            return;
        }
        DecisionWriter.Outcome outcome = writer.commit(result, placements, leadership.epoch(), Map.copyOf(versions));
        versions.putAll(outcome.newVersions());
        metrics.committed(result.admitted().stream()
                        .filter(a -> outcome.newVersions().containsKey(a.workload().uid())).toList(),
                result.preempted().stream()
                        .filter(p -> !outcome.rejectedEvictions().contains(p.workload().uid())).toList(),
                result.evicted().stream()
                        .filter(e -> !outcome.rejectedEvictions().contains(e.workload().uid())).toList(),
                outcome.at(), this::priorityClassOf);
        for (Decision.Admit rejected : outcome.rejectedAdmissions()) {
            // Lost a race (cancelled, changed): undo; the change feed brings the row as it is now.
            state.workloadFinished(rejected.workload().uid());
            placement.slices().release(rejected.workload().uid());
            versions.remove(rejected.workload().uid());
        }
        for (Decision.Admit admitted : result.admitted()) {
            if (outcome.newVersions().containsKey(admitted.workload().uid())) {
                pending.remove(admitted.workload().uid());
                DecisionWriter.Placed placed = placements.get(admitted.workload().uid());
                DecisionLog.admitted(admitted, placed == null ? null : placed.placement().cluster());
            }
        }
        result.preempted().stream().filter(p -> !outcome.rejectedEvictions().contains(p.workload().uid()))
                .forEach(p -> DecisionLog.preempted(p, clusterOf(p.workload().uid())));
        result.evicted().stream().filter(e -> !outcome.rejectedEvictions().contains(e.workload().uid()))
                .forEach(e -> DecisionLog.evicted(e, clusterOf(e.workload().uid())));
        requeueEvicted(result.preempted().stream().map(Decision.Preempt::workload).toList(), outcome);
        requeueEvicted(result.evicted().stream().map(Decision.Evict::workload).toList(), outcome);
        if (!outcome.rejectedAdmissions().isEmpty() || !outcome.rejectedEvictions().isEmpty()) {
            log.info("{} admission(s) and {} eviction(s) lost a race and were undone",
                    outcome.rejectedAdmissions().size(), outcome.rejectedEvictions().size());
        }
    }

    /**
     * Workloads admitted while no cluster was connected run nowhere yet; once a cluster reports
     * pools, each is placed (highest priority first) and started, or left as it is when no pool fits.
     */
    private void placeQuotaOnlyAdmissions() {
        if (!placement.active()) {
            return;
        }
        List<WorkloadRow> unplaced = rows.values().stream()
                .filter(r -> r.state() == WorkloadState.Admitted && r.cluster() == null && r.admission() != null)
                .sorted(Comparator.comparingInt(WorkloadRow::priority).reversed()
                        .thenComparing(r -> r.uid().toString()))
                .toList();
        for (WorkloadRow row : unplaced) {
            Admission admission = CoreMapping.admission(row.admission());
            SliceRequest request = NodePoolPlacement.request(row, admission, configuration.flavorLabels());
            Optional<SlicePlacement.Placement> where = placement.place(request);
            if (where.isEmpty()) {
                continue;
            }
            String flavor = admission.podSetAssignments().stream().flatMap(a -> a.flavors().values().stream())
                    .findFirst().orElse(null);
            Long version = writer.placeAdmitted(leadership.epoch(), row, new DecisionWriter.Placed(where.get(), flavor,
                    flavor == null ? Map.of() : configuration.flavorLabels().getOrDefault(flavor, Map.of())));
            if (version != null) {
                versions.put(row.uid().toString(), version);
                placement.slices().assign(NodePoolPlacement.holder(row), where.get());
            }
        }
    }

    /** Workloads parked for a node pool, with their ClusterQueue: the forecast reports them as not simulated. */
    private Map<String, String> parkedQueues() {
        Map<String, String> parked = new HashMap<>();
        waitingForNodePool.keySet().forEach(uid -> {
            WorkloadRow row = rows.get(uid);
            if (row != null && row.clusterQueue() != null) {
                parked.put(uid, row.clusterQueue());
            }
        });
        return parked;
    }

    /** The committed hotswap, mirrored in the core's state and the placement. */
    private void mirrorHotswap(HotswapDetector.Decided decided) {
        WorkloadRow row = decided.disrupted();
        HotswapWriter.Result result = decided.result();
        String uid = row.uid().toString();
        versions.putAll(result.newVersions());
        decided.victims().stream().filter(v -> result.victimsEvicted().contains(v.uid().toString()))
                .forEach(v -> {
                    evicted(v);
                    metrics.victim(row.clusterQueue(), "Hotswap", v);
                });
        if (!result.newVersions().containsKey(uid)) {
            return;
        }
        placement.slices().release(uid);
        switch (result.outcome()) {
            case Recovering -> placement.slices().assign(NodePoolPlacement.holder(row), decided.replacement().placement());
            case Requeued -> {
                state.workloadFinished(uid);
                requeue(row, CoreMapping.workload(row));
                metrics.evicted(row.clusterQueue(), "NodeFailures", row.priorityClassName());
            }
            case Failed -> {
                state.workloadFinished(uid);
                versions.remove(uid);
            }
        }
        metrics.hotswapDecided(result.event());
        DecisionLog.hotswap(row.namespace(), row.name(), row.clusterQueue(),
                decided.replacement() == null ? row.cluster() : decided.replacement().placement().cluster(),
                result.outcome().name(),
                result.victimsEvicted().size());
    }

    /**
     * Placement of the cycle's admissions on node pools (design §6), when a cluster is connected:
     * an admission whose slices find no free healthy pool is undone and parked with
     * {@code WaitingForNodePool} until the inventory changes.
     */
    private CycleResult place(CycleResult cycle, Map<String, DecisionWriter.Placed> placements) {
        if (!placement.active() || cycle.admitted().isEmpty()) {
            return cycle;
        }
        List<Decision.Admit> placed = new ArrayList<>();
        List<Decision.Pending> pendingDecisions = new ArrayList<>(cycle.pending());
        for (Decision.Admit admit : cycle.admitted()) {
            String uid = admit.workload().uid();
            WorkloadRow row = rows.get(uid);
            SliceRequest request = NodePoolPlacement.request(row, admit.admission(), configuration.flavorLabels());
            Optional<SlicePlacement.Placement> where = placement.place(request);
            if (where.isPresent()) {
                placement.slices().assign(new SlicePlacement.Holder(uid, row.priority(), clock.instant()), where.get());
                String flavor = admit.admission().podSetAssignments().stream()
                        .flatMap(a -> a.flavors().values().stream()).findFirst().orElse(null);
                placements.put(uid, new DecisionWriter.Placed(where.get(), flavor,
                        flavor == null ? Map.of() : configuration.flavorLabels().getOrDefault(flavor, Map.of())));
                placed.add(admit);
            } else {
                state.workloadFinished(uid);
                waitingForNodePool.put(uid, admit.workload());
                pending.remove(uid);
                pendingDecisions.add(new Decision.Pending(admit.workload(), PendingReason.WaitingForNodePool,
                        NodePoolPlacement.waitingMessage(request), true));
            }
        }
        return new CycleResult(placed, cycle.preempted(), pendingDecisions, cycle.evicted());
    }

    /**
     * Quota-only operation: a victim's quota is free once its eviction is committed, and it waits
     * again at its original queue timestamp.
     */
    private void requeueEvicted(List<Workload> evicted, DecisionWriter.Outcome outcome) {
        for (Workload w : evicted) {
            placement.slices().release(w.uid());
            if (outcome.rejectedEvictions().contains(w.uid())) {
                state.workloadFinished(w.uid());
                versions.remove(w.uid());
                continue;
            }
            state.evictionCommitted(w.uid());
            pending.add(w.uid());
        }
    }

    private void runQuiescedTasks() {
        List<QuiescedTask> ran = new ArrayList<>();
        QuiescedTask task;
        while ((task = quiescedTasks.poll()) != null) {
            if (task.run()) {
                ran.add(task);
            }
        }
        if (ran.isEmpty()) {
            return;
        }
        try {
            if (state != null) {
                rebuild();
            }
            ran.forEach(t -> t.done().complete(null));
        } catch (RuntimeException e) {
            state = null;
            ran.forEach(t -> t.done().completeExceptionally(e));
        }
    }

    private void await(long millis) {
        wakeLock.lock();
        try {
            if (!woken) {
                wakeUp.await(millis, TimeUnit.MILLISECONDS);
            }
            woken = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        } finally {
            wakeLock.unlock();
        }
    }
}
