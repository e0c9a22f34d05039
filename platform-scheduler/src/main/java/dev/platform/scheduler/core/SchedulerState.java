package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.preemption.Preemptor;
import dev.platform.scheduler.core.quota.Snapshot;

import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The long-lived scheduling state: the configuration ({@link ConfigurationIndex}), the waiting workloads
 * ({@link QueueManager}) and the admitted ones ({@link AdmittedRegistry}), kept consistent with the quota tree,
 * the change stamps and admission fair sharing's usage.
 * <p>
 * The adapter keeps one instance, feeds it changes as they happen (configuration applied, workload submitted,
 * admitted, finished, evicted) and runs {@link AdmissionCycle#run(SchedulerState)} on it to get decisions. A cycle
 * already accounts its own decisions: admitted workloads hold quota and victims are marked as being evicted. Usage
 * is kept incrementally, so a cycle costs O(ClusterQueues + workloads it looks at), not O(all workloads).
 * <p>
 * Not thread-safe: one scheduling thread owns it (Kueue's single scheduler loop).
 */
public final class SchedulerState {

    private final Clock clock;
    private final SchedulerSettings settings;
    private final Preemptor preemptor;
    private final ConfigurationIndex configuration = new ConfigurationIndex();
    private final QueueManager queues = new QueueManager(configuration, this::usageOrder);
    private final AdmittedRegistry admitted = new AdmittedRegistry(configuration);
    private final LocalQueueFairSharing fairSharing;
    private final ChangeStamps stamps = new ChangeStamps();
    /** ClusterQueues whose preemptors wait for a minimum runtime, with the earliest end among those they wait for. */
    private final Map<String, Instant> protectionEnds = new java.util.HashMap<>();
    private boolean drainRequested;

    public SchedulerState(Clock clock, SchedulerSettings settings) {
        this(clock, settings, settings.admissionFairSharing() == null ? null
                : new UsageLedger(settings.admissionFairSharing()));
    }

    private SchedulerState(Clock clock, SchedulerSettings settings, UsageLedger ledger) {
        this.clock = clock;
        this.settings = settings;
        this.preemptor = new Preemptor(settings.fairSharing());
        this.fairSharing = new LocalQueueFairSharing(ledger, clock, configuration, queues);
    }

    // ---- configuration: any change may make inadmissible workloads admissible (Kueue requeues on config events)

    public void applyResourceFlavor(ResourceFlavor flavor) {
        configuration.putFlavor(flavor);
        configurationChanged();
    }

    public void removeResourceFlavor(String name) {
        configuration.removeFlavor(name);
        configurationChanged();
    }

    public void applyCohort(CohortSpec cohort) {
        configuration.putCohort(cohort);
        configurationChanged();
    }

    public void removeCohort(String name) {
        configuration.removeCohort(name);
        configurationChanged();
    }

    public void applyClusterQueue(ClusterQueueSpec clusterQueue) {
        configuration.putClusterQueue(clusterQueue);
        PendingQueue q = queues.all().get(clusterQueue.name());
        if (q != null) {
            q.orderBy(fairSharing.usageOrder(clusterQueue.name()));
        }
        drainRequested |= clusterQueue.stopPolicy() == StopPolicy.HoldAndDrain;
        configurationChanged();
    }

    public void removeClusterQueue(String name) {
        configuration.removeClusterQueue(name);
        PendingQueue q = queues.all().get(name);
        if (q != null) {
            q.orderBy(null);
        }
        configurationChanged();
    }

    public void applyLocalQueue(LocalQueueSpec localQueue) {
        LocalQueueSpec previous = configuration.putLocalQueue(localQueue);
        if (previous != null && !previous.clusterQueue().equals(localQueue.clusterQueue())
                && queues.moveLocalQueue(localQueue.key(), previous.clusterQueue(), localQueue.clusterQueue())) {
            stamp(previous.clusterQueue());
            stamp(localQueue.clusterQueue());
        }
        fairSharing.localQueueApplied(localQueue);
        queues.adoptOrphansOf(localQueue.key()).forEach(queues.queue(localQueue.clusterQueue())::add);
        drainRequested |= localQueue.stopPolicy() == StopPolicy.HoldAndDrain;
        configurationChanged();
    }

    public void removeLocalQueue(String namespace, String name) {
        LocalQueueSpec removed = configuration.removeLocalQueue(namespace + "/" + name);
        fairSharing.localQueueRemoved(namespace + "/" + name);
        if (removed != null) {
            queues.orphanAll(removed);
        }
        configurationChanged();
    }

    /** Labels only decide which ClusterQueues admit the namespace's workloads: quotas and queues are untouched. */
    public void applyNamespace(Namespace namespace) {
        Namespace previous = configuration.namespace(namespace.name());
        configuration.putNamespace(namespace);
        namespaceLabelsChanged(previous, namespace);
    }

    /** The namespace keeps existing for its LocalQueues and workloads, with no labels but its name. */
    public void removeNamespace(String name) {
        Namespace removed = configuration.removeNamespace(name);
        if (removed != null) {
            namespaceLabelsChanged(removed, configuration.namespace(name));
        }
    }

    /** The inadmissible workloads parked as InadmissibleNamespace may fit now; nothing admitted is evicted. */
    private void namespaceLabelsChanged(Namespace before, Namespace after) {
        if (!before.labels().equals(after.labels())) {
            stamps.configurationChanged();
            queues.namespaceLabelsChanged(before, after);
        }
    }

    private void configurationChanged() {
        admitted.configurationChanged();
        stamps.configurationChanged();
        requeueInadmissible();
    }

    private ToDoubleFunction<String> usageOrder(String clusterQueue) {
        return fairSharing.usageOrder(clusterQueue);
    }

    private void stamp(String clusterQueue) {
        stamps.clusterQueueChanged(clusterQueue);
    }

    // ---- workloads

    /** A workload was submitted (or requeued by the adapter) and waits for admission. */
    public void addPending(Workload workload) {
        String cq = queues.add(workload);
        if (cq != null) {
            stamp(cq);
        }
    }

    /**
     * A workload requeued with backoff: it joins its queue once {@code requeueAt} has passed (the first cycle after
     * it), and at once when {@code requeueAt} is null or past.
     */
    public void addPending(Workload workload, Instant requeueAt) {
        if (requeueAt == null || !requeueAt.isAfter(clock.instant())) {
            addPending(workload);
        } else {
            queues.backOff(workload, requeueAt);
        }
    }

    /** A pending workload, active, backing off or inactive, was deleted. */
    public void removePending(String uid) {
        String cq = queues.remove(uid);
        if (cq != null) {
            stamp(cq);
        }
    }

    /** A workload holds quota: restored at start-up, or admitted outside a cycle; no checkpoint known since. */
    public void addAdmitted(Workload workload, Admission admission, Instant admittedAt) {
        addAdmitted(workload, admission, admittedAt, null);
    }

    /**
     * A workload holds quota since {@code admittedAt} and last wrote a checkpoint at {@code lastCheckpoint} (null
     * when none is known; one before the admission saved nothing of this run).
     */
    public void addAdmitted(Workload workload, Admission admission, Instant admittedAt, Instant lastCheckpoint) {
        removePending(workload.uid());
        AdmittedWorkload a = new AdmittedWorkload(workload, admission, AdmittedWorkload.usageOf(admission),
                admittedAt, lastCheckpoint, false);
        admitted.add(a);
        fairSharing.admitted(a);
        stamp(admission.clusterQueue());
    }

    /** An admitted workload finished, failed or was deleted: its quota is free again. */
    public void workloadFinished(String uid) {
        AdmittedWorkload a = admitted.remove(uid);
        if (a == null) {
            removePending(uid);
            return;
        }
        String cq = a.clusterQueue();
        fairSharing.released(a);
        stamp(cq);
        requeueInadmissible(cq);
    }

    /**
     * The eviction of a workload (preempted or drained) completed: its quota is free and it waits again, queued as
     * of now (Kueue orders evicted workloads by eviction time).
     */
    public void evictionCompleted(String uid) {
        requeueEvicted(uid, true);
    }

    /**
     * The eviction of an admitted workload was committed (a preemption victim, or drained by HoldAndDrain): the
     * platform frees its quota at once, without waiting for its pods to go, and it waits again at its original
     * queue timestamp. The scheduling loop calls this after committing a cycle, and the forecast does the same
     * after each simulated cycle, so both treat victims alike.
     */
    public void evictionCommitted(String uid) {
        requeueEvicted(uid, false);
    }

    private void requeueEvicted(String uid, boolean queuedNow) {
        AdmittedWorkload a = admitted.get(uid);
        if (a != null && !keptInactive(a)) {
            workloadFinished(uid);
            addPending(queuedNow ? a.workload().requeuedAt(clock.instant()) : a.workload());
        }
    }

    /** A deactivated workload whose eviction ended frees its quota and waits inactive, out of every queue. */
    private boolean keptInactive(AdmittedWorkload a) {
        if (!admitted.deactivating(a.uid())) {
            return false;
        }
        workloadFinished(a.uid());
        queues.keepInactive(a.workload());
        return true;
    }

    /**
     * The eviction of an admitted workload has started (restored at start-up, or ordered outside a cycle): it keeps
     * its quota until {@link #evictionCompleted}, and preemption prefers it as a victim.
     */
    public void evictionStarted(String uid) {
        AdmittedWorkload a = admitted.get(uid);
        if (a != null && !a.evicted()) {
            admitted.replace(a.markEvicted());
            stamp(a.clusterQueue());
        }
    }

    // ---- the active flag and priority changes

    /** A workload submitted (or restored) with spec.active false: kept, not queued. */
    public void addInactive(Workload workload) {
        queues.keepInactive(workload);
    }

    /**
     * spec.active became false (Kueue's workload_controller.go, "The workload is deactivated"): a pending workload
     * leaves its queue and is kept; an admitted one is evicted by the next cycle with reason Deactivated and is not
     * requeued.
     */
    public void deactivate(String uid) {
        Workload held = queues.takeBackingOff(uid);
        if (held != null) {
            queues.keepInactive(held);
            return;
        }
        Workload pending = queues.pending(uid);
        if (pending != null) {
            removePending(uid);
            queues.keepInactive(pending);
            return;
        }
        if (admitted.markDeactivating(uid)) {
            drainRequested = true;
        }
    }

    /**
     * spec.active became true again (Kueue's "Reactivated"): a kept workload waits in its queue again at its queue
     * timestamp; an admitted one whose eviction has not been decided yet keeps its quota.
     */
    public void activate(String uid) {
        Workload kept = queues.takeInactive(uid);
        if (kept != null) {
            addPending(kept);
            return;
        }
        admitted.clearDeactivating(uid);
    }

    /** Whether {@code uid} is deactivated (kept, or holding quota until its eviction). */
    public boolean isInactive(String uid) {
        return queues.isInactive(uid) || admitted.deactivating(uid);
    }

    /**
     * A workload's priority changed (its kueue.x-k8s.io/priority-class label). A pending one is sorted again at once;
     * an admitted one is held with its new priority, so the next preemption search sees it, and the inadmissible
     * workloads of its cohort tree are tried again, since a lower priority may make it a victim (Kueue's
     * workload_controller.go Update, PriorityChanged).
     */
    public void changePriority(String uid, int priority) {
        Workload pending = queues.pending(uid);
        if (pending != null) {
            removePending(uid);
            addPending(pending.withPriority(priority));
            return;
        }
        if (queues.reprioritiseHeld(uid, priority)) {
            return;
        }
        AdmittedWorkload a = admitted.get(uid);
        if (a != null && a.priority() != priority) {
            admitted.replace(a.withPriority(priority));
            stamp(a.clusterQueue());
            requeueInadmissible(a.clusterQueue());
        }
    }

    /**
     * An admitted workload wrote a checkpoint (its platform.dev/last-checkpoint changed): preemption searches that
     * order by least lost work weigh it by the new one. A checkpoint only reorders candidates of equal priority and
     * makes no preemption possible that was not, so nothing is tried again.
     */
    public void checkpointed(String uid, Instant lastCheckpoint) {
        AdmittedWorkload a = admitted.get(uid);
        if (a != null && !Objects.equals(a.lastCheckpoint(), lastCheckpoint)) {
            admitted.replace(a.withLastCheckpoint(lastCheckpoint));
            stamp(a.clusterQueue());
        }
    }

    /**
     * Something outside the core changed that may let inadmissible workloads in (node pool healed, capacity
     * reported): every inadmissible workload is tried again.
     */
    public void requeueInadmissible() {
        queues.requeueInadmissible();
    }

    /** Tries again the inadmissible workloads of every ClusterQueue sharing a cohort tree with {@code clusterQueue}. */
    public void requeueInadmissible(String clusterQueue) {
        admitted.cohortTreeOf(clusterQueue).forEach(cq -> queues.queue(cq).requeueInadmissible());
    }

    // ---- before a cycle, and what it changes

    /**
     * Readies the state for a cycle: workloads whose backoff ended join their queues (Kueue's BackoffFinished
     * requeue); under admission fair sharing, the entry penalties of the last cycle's admissions settle, and every
     * LocalQueue is sampled when it is time.
     */
    void beforeCycle() {
        queues.takeEndedBackoffs(clock.instant()).forEach(this::addPending);
        requeueWhereProtectionEnded();
        fairSharing.beforeCycle();
    }

    /** A preemptor of {@code clusterQueue} waits for victims protected until {@code end}: try it again then. */
    void retryWhenProtectionEnds(String clusterQueue, Instant end) {
        protectionEnds.merge(clusterQueue, end, (a, b) -> a.isBefore(b) ? a : b);
    }

    /** When the first wait for protected victims ends, where a preemptor waits for one: a time to try it again. */
    public Optional<Instant> nextProtectionEnd() {
        return protectionEnds.values().stream().min(Comparator.naturalOrder());
    }

    private void requeueWhereProtectionEnded() {
        Instant now = clock.instant();
        List<String> ended = protectionEnds.entrySet().stream().filter(e -> !e.getValue().isAfter(now))
                .map(Map.Entry::getKey).sorted().toList();
        ended.forEach(cq -> {
            protectionEnds.remove(cq);
            if (configuration.clusterQueues().containsKey(cq)) {
                requeueInadmissible(cq);
            }
        });
    }

    /** Applies an admission decided by a cycle: the workload now holds quota. */
    void assume(Workload w, Admission admission, Instant now) {
        queues.admitted(w, admission.clusterQueue());
        addAdmitted(w, admission, now);
    }

    boolean takeDrainRequest() {
        boolean requested = drainRequested;
        drainRequested = false;
        return requested;
    }

    // ---- reads for adapters and views

    /** The configuration by name. */
    public ConfigurationIndex configuration() {
        return configuration;
    }

    /** The waiting workloads, per ClusterQueue. */
    public QueueManager queueManager() {
        return queues;
    }

    /** Admission fair sharing's LocalQueue usage. */
    public LocalQueueFairSharing fairSharing() {
        return fairSharing;
    }

    /** The workloads holding quota, and each ClusterQueue's usage. */
    public AdmittedRegistry admittedRegistry() {
        return admitted;
    }

    /** Pending (backing off and inactive ones too) and admitted workloads this state holds. */
    public int workloadCount() {
        return queues.count() + admitted.count();
    }

    // ---- copies for the forecast

    /**
     * Whether a ClusterQueue is stopped (stopPolicy Hold or HoldAndDrain): it admits nothing until it is released,
     * which is a configuration change.
     */
    public boolean isStopped(String clusterQueue) {
        ClusterQueueSpec cq = configuration.clusterQueues().get(clusterQueue);
        return cq != null && cq.stopPolicy() != StopPolicy.None;
    }

    /**
     * The cohort trees: ClusterQueues sharing quota through a cohort forest, which no admission or preemption ever
     * crosses, keyed by their root ({@link AdmittedRegistry#cohortTrees}).
     */
    public Map<String, List<String>> cohortTrees() {
        return admitted.cohortTrees(queues.all().keySet());
    }

    /**
     * The latest change stamp of the given ClusterQueues and the configuration: it grows whenever something that
     * decides when their workloads are admitted changes.
     */
    public long lastChange(Collection<String> clusterQueues) {
        return stamps.lastChange(clusterQueues);
    }

    /**
     * An independent copy of the part of this state that one cohort tree sees: the tree's ClusterQueues with their
     * cohorts, the LocalQueues feeding them, their pending workloads (inadmissible sets included), admitted
     * workloads and usage, and the last pending decisions of those workloads; every flavor and namespace. The copy
     * runs its cycles on {@code clock}. Workloads and specs are immutable records, so the copy shares them.
     */
    public SchedulerState copyOf(Collection<String> clusterQueueNames, Clock clock) {
        return copyOf(clusterQueueNames, Set.of(), clock);
    }

    /**
     * The same copy but for the pending workloads of {@code waitingLeftOut}, some of the ClusterQueues copied, whose
     * ClusterQueues, admitted workloads and usage are copied all the same. For the stopped ones ({@link #isStopped}):
     * no cycle admits their waiting workloads, which therefore change nothing for the rest of the tree, and copying
     * a held queue's backlog would cost the scheduling thread as much as the backlog is deep.
     */
    public SchedulerState copyOf(Collection<String> clusterQueueNames, Set<String> waitingLeftOut, Clock clock) {
        SchedulerState copy = new SchedulerState(clock, settings, fairSharing.copyOf(configuration.localQueues().stream()
                .filter(lq -> clusterQueueNames.contains(lq.clusterQueue())).map(LocalQueueSpec::key).toList()));
        configuration.copyInto(copy.configuration, clusterQueueNames, admitted.quotaTree());
        copy.drainRequested = drainRequested;
        protectionEnds.forEach((cq, end) -> {
            if (clusterQueueNames.contains(cq)) {
                copy.protectionEnds.put(cq, end);
            }
        });
        queues.copyInto(copy.queues, clusterQueueNames.stream().filter(cq -> !waitingLeftOut.contains(cq)).toList(),
                copy.fairSharing.enabled() ? copy.fairSharing::score : null);
        clusterQueueNames.forEach(cq -> admitted.copyInto(copy.admitted, cq));
        return copy;
    }

    // ---- for the cycle (package-private)

    Clock clock() {
        return clock;
    }

    SchedulerSettings settings() {
        return settings;
    }

    Preemptor preemptor() {
        return preemptor;
    }

    Snapshot snapshot() {
        return admitted.snapshot(clock.instant(), fairSharing.enabled() ? fairSharing::preemptionUsage : null,
                settings.lostWorkResources());
    }
}
