package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.cluster.AgentsProperties;
import dev.platform.scheduler.cluster.NodePoolInventory;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.forecast.ForecastService;
import dev.platform.scheduler.leadership.LeaderStatus;
import dev.platform.scheduler.leadership.LeadershipLost;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The scheduling loop: Kueue's {@code Scheduler.schedule} driven by its queue manager. One thread
 * per replica; only the leader runs cycles. Each turn:
 * <ol>
 *   <li>run maintenance queued to run between turns ({@link #quiesced});</li>
 *   <li>keep or take leadership; on taking it, rebuild the cache from PostgreSQL;</li>
 *   <li>read what changed since the last turn: configuration, node pools, the workload change feed;</li>
 *   <li>hotswap workloads on pools broken past the grace period; evict those past pods-ready or run limits;
 *       requeue those whose JobSet their cluster no longer has; admit, requeue or deactivate the quota reservations
 *       whose admission checks settled;</li>
 *   <li>place the workloads without a queue name, by priority;</li>
 *   <li>run one core cycle, put its admissions on node pools, commit its decisions in one transaction
 *       fenced by the leader epoch, and keep in the cache what landed;</li>
 *   <li>publish the pending counts, write the LocalQueue usage the turn changed (admission fair sharing); when a
 *       forecast round is due, copy the cohort trees that changed for it;</li>
 *   <li>wait for a change, a poll interval or the tick, unless the turn changed something.</li>
 * </ol>
 */
@Component
public class SchedulingLoop implements SmartLifecycle, LeaderStatus {

    private static final Logger log = LoggerFactory.getLogger(SchedulingLoop.class);

    private final SchedulingProperties properties;
    private final WorkloadStore workloads;
    private final NodePoolInventory inventory;
    private final DecisionCommitter committer;
    private final HotswapDetector hotswapDetector;
    private final LifecycleWatch lifecycle;
    private final MissingJobSets missingJobSets;
    private final CacheObserver cacheObserver;
    private final ForecastService forecasts;
    private final SchedulingMetrics metrics;
    private final Clock clock;
    private final Duration staleness;
    private final SchedulerLeadership leadership;
    private final ConfigurationMirror configuration;
    private final LoopWakeup wakeup;
    private final QuiescedTasks quiescedTasks = new QuiescedTasks();
    private final LocalQueueUsageSync localQueueUsage;
    private final Set<String> lostWorkResources;
    private final RebuildPrefetch prefetch;
    private final AdmissionCheckWatch admissionChecks;

    private volatile boolean running;
    private volatile boolean leading;
    private Thread thread;

    // Owned by the loop thread; a new cache and its helpers at every rebuild.
    private SchedulerCache cache;
    private ChangeFeed feed;
    private AdmissionPlacement admissions;
    private PriorityOnlyPlacement priorityOnly;

    public SchedulingLoop(SchedulingProperties properties, ConfigStore config, WorkloadStore workloads,
                          NodePoolInventory inventory, DecisionCommitter committer, HotswapDetector hotswapDetector,
                          LifecycleWatch lifecycle, MissingJobSets missingJobSets, ForecastService forecasts, SchedulingMetrics metrics, CacheObserver cacheObserver,
                          LoopWakeup wakeup, DataSource dataSource, Clock clock, AgentsProperties agents,
                          LocalQueueUsageSync localQueueUsage, AdmissionCheckWatch admissionChecks,
                          @Value("${platform.scheduler.lost-work.resources:google.com/tpu,nvidia.com/gpu}")
                          List<String> lostWorkResources) {
        this.properties = properties;
        this.workloads = workloads;
        this.inventory = inventory;
        this.committer = committer;
        this.hotswapDetector = hotswapDetector;
        this.lifecycle = lifecycle;
        this.missingJobSets = missingJobSets;
        this.cacheObserver = cacheObserver;
        this.wakeup = wakeup;
        this.localQueueUsage = localQueueUsage;
        this.admissionChecks = admissionChecks;
        this.forecasts = forecasts;
        this.metrics = metrics;
        this.clock = clock;
        this.staleness = agents.staleness();
        this.lostWorkResources = Set.copyOf(lostWorkResources);
        this.configuration = new ConfigurationMirror(config);
        this.leadership = new SchedulerLeadership(dataSource, ManagementFactory.getRuntimeMXBean().getName()
                + "/" + UUID.randomUUID().toString().substring(0, 8), properties.leaderLease());
        this.prefetch = properties.enabled() ? RebuildPrefetch.start(workloads, clock) : RebuildPrefetch.none();
    }

    /** Asks for a turn as soon as possible. */
    public void wake() {
        wakeup.wake();
    }

    /** Whether this replica led the last turn; any thread reads it, only the loop touches the lock's connection. */
    @Override
    public boolean isLeader() {
        return leading;
    }

    /**
     * Runs {@code task} on the loop thread between turns, then rebuilds the cache from the database: for
     * maintenance that rewrites tables behind the loop's back. Runs inline when the loop is not running.
     */
    public CompletableFuture<Void> quiesced(Runnable task) {
        prefetch.discard();
        if (!running) {
            return QuiescedTasks.runNow(task);
        }
        CompletableFuture<Void> done = quiescedTasks.add(task);
        wake();
        return done;
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
        stepDown();
        quiescedTasks.runAll(() -> { });
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void run() {
        while (running) {
            try {
                quiescedTasks.runAll(() -> {                                                    // 1
                    if (cache != null) {
                        rebuild();
                    }
                });
                if (!ensureLeadership()) {                                                      // 2
                    await(properties.leaderRetry());
                    continue;
                }
                boolean changed = readChanges();                                                // 3
                changed |= hotswapDetector.run(leadership.epoch(), cache.placement(), cache::row,       // 4
                        configuration.flavorInjections(), cache.state().configuration()::clusterQueue, lostWorkResources,
                        this::hotswapped) | lifecycle.run(leadership.epoch(), cache)
                        | missingJobSets.run(leadership.epoch()) | settleAdmissionChecks();
                changed |= placePriorityOnly();                                                 // 5
                boolean progressed = runCycle();                                                // 6
                metrics.pendingCounts(cache.pendingCounts());                                   // 7
                localQueueUsage.persist(cache.state(), leadership.epoch());
                forecasts.afterTurn(cache.state(), !progressed && !changed, cache::parkedQueues);
                if (!progressed && !changed) {                                                  // 8
                    await(properties.pollInterval());
                }
            } catch (LeadershipLost e) {
                log.warn("stepping down: {}", e.getMessage());
                stepDown();
            } catch (RuntimeException e) {
                log.error("scheduling turn failed; the state is rebuilt from the database", e);
                leading = false;
                cache = null;
                await(properties.leaderRetry());
            }
        }
    }

    private boolean ensureLeadership() {
        if (cache != null && leadership.holds()) {
            leading = true;
            return true;
        }
        if (cache != null) {
            stepDown();
        }
        if (!leadership.holds() && !leadership.tryAcquire()) {
            prefetch.expire();
            return false;
        }
        rebuild();
        leading = true;
        return true;
    }

    private void stepDown() {
        leading = false;
        cache = null;
        forecasts.leadershipLost();
        leadership.release();
        metrics.pendingCounts(Map.of());
    }

    /** Kueue's cache rebuilt from the source of truth. */
    private void rebuild() {
        cache = new SchedulerCache(clock, properties.schedulerSettings().withLostWorkResources(lostWorkResources),
                properties.waitForPodsReady().settings(), cacheObserver);
        admissions = new AdmissionPlacement(cache, configuration.flavorInjections(), admissionChecks::awaitingChecks);
        priorityOnly = new PriorityOnlyPlacement(cache.placement(), cache.priorityOnly(), committer,
                configuration.flavorLabels(), configuration.nonPreemptingClasses());
        cache.placement().replaceInventory(inventory.pools(clock.instant().minus(staleness)));
        configuration.reset();
        Optional<RebuildPrefetch.Snapshot> prefetched = prefetch.take(workloads::latestChange);
        feed = prefetched.map(read -> new ChangeFeed(workloads, read.position()))
                .orElseGet(() -> new ChangeFeed(workloads));
        reloadConfiguration();
        localQueueUsage.restore(cache.state(), leadership.epoch());
        List<WorkloadRow> active = prefetched.map(RebuildPrefetch.Snapshot::active).orElseGet(workloads::active);
        cache.restore(active);
        forecasts.leadershipTaken(feed.position(), CoreMapping::workload);
        log.info("scheduler state rebuilt: {} active workloads{}, change feed at {}", active.size(),
                prefetched.isPresent() ? " (read ahead)" : "", feed.position());
    }

    /** Applies what changed since the last turn; true when anything did. */
    private boolean readChanges() {
        boolean changed = reloadConfiguration();
        if (cache.placement().replaceInventory(inventory.pools(clock.instant().minus(staleness)))) {
            cache.inventoryChanged();
            admissions.placeAdmittedWithoutPools(leadership.epoch(), committer);
            changed = true;
        }
        changed |= feed.read(cache::reconcile);
        // Again after the feed: a configuration change committed before a workload the feed saw (a LocalQueue
        // stopped, then a workload submitted to it) must be in force when that workload is decided.
        changed |= reloadConfiguration();
        return changed;
    }

    private boolean reloadConfiguration() {
        if (!configuration.refresh(cache.state())) {
            return false;
        }
        cache.configurationChanged();
        return true;
    }

    /** Admits, requeues or deactivates the quota reservations whose checks settled; the admitted are placed. */
    private boolean settleAdmissionChecks() {
        if (!admissionChecks.run(leadership.epoch(), cache)) {
            return false;
        }
        admissions.placeAdmittedWithoutPools(leadership.epoch(), committer);
        return true;
    }

    /** Places what waits without a queue name; true when anything was admitted. */
    private boolean placePriorityOnly() {
        List<PriorityOnlyPlacement.Admitted> admitted = priorityOnly.place(leadership.epoch(), cache::row);
        admitted.forEach(a -> {
            cache.admittedByPriority(a);
            metrics.admittedByPriority(a);
            DecisionLog.admittedByPriority(a);
        });
        return !admitted.isEmpty();
    }

    /** One core cycle, placed and committed; true when it admitted, preempted or evicted anyone. */
    private boolean runCycle() {
        long started = System.nanoTime();
        CycleResult cycle = AdmissionCycle.run(cache.state());
        boolean progressed = !cycle.admitted().isEmpty() || !cycle.preempted().isEmpty() || !cycle.evicted().isEmpty();
        if (cycle.isEmpty()) {
            return progressed;
        }
        AdmissionPlacement.Placed placed = admissions.place(cycle);
        CycleResult result = placed.result();
        if (!result.isEmpty()) {
            CycleDecisions.Outcome outcome = CycleDecisions.outcome(result, committer.commit(leadership.epoch(),
                    CycleDecisions.of(result, placed.placements(), cache.versions())));
            cache.committed(result, outcome);
            metrics.committed(result, outcome);
            DecisionLog.committed(result, outcome, placed.placements(), cache::row);
        }
        metrics.cycle(!cycle.admitted().isEmpty(), Duration.ofNanos(System.nanoTime() - started));
        return progressed;
    }

    /** A committed hotswap, mirrored in the cache before the next is decided, then counted and logged. */
    private void hotswapped(HotswapDetector.Decided decided) {
        cache.hotswapped(decided);
        metrics.hotswapped(decided);
        DecisionLog.hotswap(decided);
    }

    private void await(Duration timeout) {
        if (!wakeup.await(timeout)) {
            running = false;
        }
    }
}
