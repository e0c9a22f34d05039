package dev.platform.scheduler.scheduling;

import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.QueueManager;
import dev.platform.scheduler.core.QueueOrder;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.lifecycle.AdmittedRun;
import dev.platform.scheduler.core.lifecycle.LifecycleTimers;
import dev.platform.scheduler.core.lifecycle.PodsReady;
import dev.platform.scheduler.core.lifecycle.WaitForPodsReady;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;

import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What the scheduling loop knows, kept in step in one place (Kueue's cache and queue manager): the
 * core's state, and beside it what the core does not hold: the version of every workload as the
 * state knows it, the latest row of each, the workloads parked until a node pool frees up, which
 * workload holds which pool, who waits in priority-only mode, and the lifecycle timers (pods-ready
 * timeouts, maximum execution times) of the workloads holding quota.
 * <p>
 * The core assumes an admission as soon as its cycle decides it; the cache then either keeps it
 * ({@link #committed}) or forgets it (it lost a race, or no node pool fits: {@link #park}). Evicted
 * workloads are requeued at their old place. Rows from the change feed ({@link #reconcile}) are the
 * truth the cache converges to. Owned by the loop thread; needs no database.
 */
final class SchedulerCache {

    /** What the cache tells the rest of the loop about rows it reconciles. */
    interface Observer {

        /** {@code row}, waiting in a LocalQueue, is new to the cache: it was submitted. */
        void submitted(Workload workload, WorkloadRow row);

        /** {@code row} holds quota from an admission the previous row did not have. */
        void admitted(WorkloadRow row);

        /** {@code row} runs now and did not at the previous row. */
        void startedRunning(WorkloadRow row);

        /** {@code row} ended after holding quota; admitted and finished times are set when it finished. */
        void finished(Workload workload, WorkloadRow row);
    }

    private final SchedulerState state;
    private final NodePoolPlacement placement = new NodePoolPlacement();
    private final PriorityOnlyQueue priorityOnly = new PriorityOnlyQueue();
    private final Clock clock;
    private final Observer observer;
    /** Version of every workload as the state knows it; a feed row with the same version is already reflected. */
    private final Map<String, Long> versions = new HashMap<>();
    /** Workloads the state holds as pending, inactive ones too (the others in {@link #versions} hold quota). */
    private final Set<String> pending = new HashSet<>();
    /** The latest row of every active workload: what placement needs beyond the core's view. */
    private final Map<String, WorkloadRow> rows = new HashMap<>();
    /**
     * Workloads whose quota fitted but no node pool did: parked outside the core until the
     * inventory or the configuration changes (placement's inadmissible set).
     */
    private final Map<String, Workload> waitingForNodePool = new HashMap<>();
    private final LifecycleTimers lifecycle;
    /** A row and an admission in the core's terms; {@link #restore} shares what rows share. */
    private Function<WorkloadRow, Workload> toCore = CoreMapping::workload;
    private Function<StoredAdmission, Admission> toCoreAdmission = CoreMapping::admission;

    SchedulerCache(Clock clock, SchedulerSettings settings, WaitForPodsReady podsReady, Observer observer) {
        this.state = new SchedulerState(clock, settings);
        this.lifecycle = new LifecycleTimers(podsReady);
        this.clock = clock;
        this.observer = observer;
    }

    SchedulerState state() {
        return state;
    }

    NodePoolPlacement placement() {
        return placement;
    }

    LifecycleTimers lifecycle() {
        return lifecycle;
    }

    PriorityOnlyQueue priorityOnly() {
        return priorityOnly;
    }

    /** The latest row of an active workload, or null. */
    WorkloadRow row(String uid) {
        return rows.get(uid);
    }

    /**
     * The version of every workload as the cache knows it, to guard the writes of a decision: a read-only view,
     * read before the cache changes again (a copy would cost the whole backlog on every cycle).
     */
    Map<String, Long> versions() {
        return Collections.unmodifiableMap(versions);
    }

    /**
     * Loads the active workloads read at a rebuild, with the pools they hold. Rows read together share their
     * decoded pod sets and admissions (a backlog holds many copies of few shapes), so each shared one is mapped
     * into the core's terms once: the core's pod sets and admissions are immutable values.
     */
    void restore(Collection<WorkloadRow> active) {
        Map<List<PodSetSpec>, List<PodSet>> podSets = new IdentityHashMap<>();
        Map<StoredAdmission, Admission> admissions = new IdentityHashMap<>();
        toCore = row -> CoreMapping.workload(row, specs -> podSets.computeIfAbsent(specs, CoreMapping::podSets));
        toCoreAdmission = stored -> admissions.computeIfAbsent(stored, CoreMapping::admission);
        try {
            active.forEach(this::reconcile);
        } finally {
            toCore = CoreMapping::workload;
            toCoreAdmission = CoreMapping::admission;
        }
        active.stream().filter(r -> r.state().holdsQuota() || r.state() == WorkloadState.Evicted)
                .forEach(placement::restore);
    }

    /** Brings the cache in line with one row of the change feed. */
    void reconcile(WorkloadRow row) {
        String uid = row.uid().toString();
        WorkloadRow previous = rows.put(uid, row);
        // before the version check: the loop's own admissions are known at their version before the feed brings them
        trackLifecycle(row);
        if (row.state().holdsQuota() && row.admittedAt() != null && previous != null
                && !row.admittedAt().equals(previous.admittedAt())) {
            observer.admitted(row);
        }
        if (row.state() == WorkloadState.Running && previous != null && previous.state() != WorkloadState.Running) {
            observer.startedRunning(row);
        }
        Long known = versions.get(uid);
        if (known != null && known == row.version()) {
            return;
        }
        if (!row.state().holdsQuota() && row.state() != WorkloadState.Evicted) {
            placement.slices().release(uid);
        }
        if (previous != null && previous.priority() != row.priority()) {
            // a holder, queued or priority-only, is weighed by its new priority when hotswap or
            // priority-only placement looks for victims, as the core weighs it for preemption
            placement.slices().changePriority(uid, row.priority());
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
        switch (row.state()) {
            case Pending -> {
                if (held) {
                    state.workloadFinished(uid);
                }
                Workload workload = toCore.apply(row);
                if (previous == null) {
                    observer.submitted(workload, row);
                }
                // an inactive workload is kept but not queued (Kueue's spec.active: false)
                if (row.lifecycle().active()) {
                    state.addPending(workload, row.lifecycle().requeueAt());
                } else {
                    state.addInactive(workload);
                }
                pending.add(uid);
                versions.put(uid, row.version());
            }
            case Admitted, Running, Evicted -> {
                if (!held && row.admission() != null) {
                    state.addAdmitted(toCore.apply(row), toCoreAdmission.apply(row.admission()),
                            row.admittedAt(), row.lastCheckpoint());
                } else if (held) {
                    state.changePriority(uid, row.priority());
                    state.checkpointed(uid, row.lastCheckpoint());
                }
                if (row.lifecycle().active()) {
                    state.activate(uid);
                } else {
                    state.deactivate(uid);
                }
                versions.put(uid, row.version());
            }
            case Finished, Failed -> {
                if (held) {
                    state.workloadFinished(uid);
                    observer.finished(CoreMapping.workload(row), row);
                }
                versions.remove(uid);
                rows.remove(uid);
            }
        }
    }

    /** Starts, moves or stops the lifecycle timers of a workload as its row says. */
    private void trackLifecycle(WorkloadRow row) {
        if (!row.state().holdsQuota() || row.admittedAt() == null) {
            lifecycle.forget(row.uid().toString());
            return;
        }
        WorkloadRow.Lifecycle l = row.lifecycle();
        PodsReady podsReady = l.podsReady() ? PodsReady.Ready
                : l.podsReadyChangedAt() == null ? PodsReady.WaitForStart : PodsReady.WaitForRecovery;
        lifecycle.track(new AdmittedRun(row.uid().toString(), row.namespace() + "/" + row.name(), row.admittedAt(),
                row.cluster() != null, podsReady, l.podsReadyChangedAt(), l.requeueCount(),
                row.maximumExecutionTimeSeconds() == null ? null
                        : Duration.ofSeconds(row.maximumExecutionTimeSeconds())));
    }

    /** A workload without a queue: tracked for placement by priority only; the core never sees it. */
    private void reconcilePriorityOnly(String uid, WorkloadRow row) {
        priorityOnly.track(row);
        if (row.state().isTerminal()) {
            versions.remove(uid);
            rows.remove(uid);
        } else {
            versions.put(uid, row.version());
        }
    }

    /** The inventory changed: a pool healed or appeared, so what waits for one tries again (Kueue's requeue). */
    void inventoryChanged() {
        unpark();
        state.requeueInadmissible();
    }

    /**
     * The configuration changed (the state already tried its inadmissible workloads again): what waits for a
     * node pool is decided again too, since its quota may no longer fit, and a PriorityClass may now let
     * priority-only workloads preempt.
     */
    void configurationChanged() {
        unpark();
        priorityOnly.retry();
    }

    /** The workloads parked for a node pool wait in the core again, for the next cycle to decide. */
    private void unpark() {
        waitingForNodePool.values().forEach(w -> {
            state.addPending(w);
            pending.add(w.uid());
        });
        waitingForNodePool.clear();
    }

    /** An admission of the cycle found pools: they are its own until the decision is committed or forgotten. */
    void assume(Decision.Admit admit, SlicePlacement.Placement where) {
        String uid = admit.workload().uid();
        placement.slices().assign(new SlicePlacement.Holder(uid, admit.workload().priority(), clock.instant()), where);
    }

    /** An admission of the cycle found no pool: its quota goes back and it waits outside the core for one. */
    void park(Decision.Admit admit) {
        String uid = admit.workload().uid();
        state.workloadFinished(uid);
        waitingForNodePool.put(uid, admit.workload());
        pending.remove(uid);
    }

    /**
     * The cycle's decisions as the writer committed them: what landed is kept, what lost a race is
     * forgotten (the change feed brings the row as it is now), and every committed victim waits
     * again at its original queue timestamp.
     */
    void committed(CycleResult result, CycleDecisions.Outcome outcome) {
        versions.putAll(outcome.newVersions());
        outcome.rejectedAdmissions().forEach(rejected -> forget(rejected.workload().uid()));
        result.admitted().stream().map(a -> a.workload().uid())
                .filter(outcome.newVersions()::containsKey).forEach(pending::remove);
        result.preempted().forEach(p -> evictionCommitted(p.workload().uid(), outcome));
        result.evicted().forEach(e -> evictionCommitted(e.workload().uid(), outcome));
    }

    /** Undoes an assumed admission that did not land. */
    private void forget(String uid) {
        state.workloadFinished(uid);
        placement.slices().release(uid);
        versions.remove(uid);
    }

    /** Quota-only operation: a victim's quota is free once its eviction is committed. */
    private void evictionCommitted(String uid, CycleDecisions.Outcome outcome) {
        placement.slices().release(uid);
        if (outcome.rejectedEvictions().contains(uid)) {
            state.workloadFinished(uid);
            versions.remove(uid);
            return;
        }
        state.evictionCommitted(uid);
        pending.add(uid);
    }

    /** A workload admitted while no cluster was connected now holds pools; its row moved to {@code version}. */
    void placed(WorkloadRow row, long version, SlicePlacement.Placement where) {
        versions.put(row.uid().toString(), version);
        placement.slices().assign(NodePoolPlacement.holder(row), where);
    }

    /** A priority-only workload admitted onto pools, its victims evicted in the same transaction. */
    void admittedByPriority(PriorityOnlyPlacement.Admitted admitted) {
        versions.put(admitted.workload().uid().toString(), admitted.version());
        versions.putAll(admitted.victimVersions());
        admitted.victims().forEach(this::evicted);
    }

    /**
     * A committed hotswap: the victims' evictions, and the disrupted workload restarted on its
     * replacement, requeued, or failed.
     */
    void hotswapped(HotswapDetector.Decided decided) {
        WorkloadRow row = decided.disrupted();
        HotswapDetector.Result result = decided.result();
        String uid = row.uid().toString();
        versions.putAll(result.newVersions());
        decided.victims().stream().filter(v -> result.victimsEvicted().contains(v.uid().toString()))
                .forEach(this::evicted);
        if (!result.newVersions().containsKey(uid)) {
            return;
        }
        placement.slices().release(uid);
        switch (result.outcome()) {
            case Recovering -> placement.slices().assign(NodePoolPlacement.holder(row),
                    decided.replacement().placement());
            case Requeued -> {
                state.workloadFinished(uid);
                requeue(row, CoreMapping.workload(row));
            }
            case Failed -> {
                state.workloadFinished(uid);
                versions.remove(uid);
            }
        }
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
        if (row.queueName() == null) {
            priorityOnly.requeue(row.uid().toString());
            return;
        }
        state.addPending(workload);
        pending.add(workload.uid());
    }

    /** Workloads admitted while no cluster was connected, so on no pool yet, in queue order. */
    List<WorkloadRow> admittedWithoutPools() {
        return rows.values().stream()
                .filter(r -> r.state() == WorkloadState.Admitted && r.cluster() == null && r.admission() != null)
                .sorted(QueueOrder.of(WorkloadRow::priority, WorkloadRow::queueTimestamp, r -> r.uid().toString()))
                .toList();
    }

    /** Kueue's pending gauge: the core's queues, plus what waits for a node pool outside the core (inadmissible). */
    Map<String, QueueManager.PendingCounts> pendingCounts() {
        Map<String, QueueManager.PendingCounts> counts = new HashMap<>(state.queueManager().pendingCounts());
        parkedQueues().values().forEach(queue -> counts.merge(queue, new QueueManager.PendingCounts(0, 1),
                (a, b) -> a.plusInadmissible(b.inadmissible())));
        return counts;
    }

    /** Workloads parked for a node pool, with their ClusterQueue. */
    Map<String, String> parkedQueues() {
        Map<String, String> parked = new HashMap<>();
        waitingForNodePool.keySet().forEach(uid -> {
            WorkloadRow row = rows.get(uid);
            if (row != null && row.clusterQueue() != null) {
                parked.put(uid, row.clusterQueue());
            }
        });
        return parked;
    }
}
