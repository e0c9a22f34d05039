package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.preemption.Preemptor;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.QuotaTree;
import dev.platform.scheduler.core.quota.Snapshot;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The long-lived scheduling state (Kueue's cache plus queue manager) and the entry point of the core.
 * <p>
 * The adapter keeps one instance, feeds it changes as they happen (configuration applied, workload submitted,
 * admitted, finished, evicted) and calls {@link #runCycle()} to get decisions. A cycle already accounts its own
 * decisions: admitted workloads hold quota and victims are marked as being evicted. Usage is kept incrementally, so
 * a cycle costs O(ClusterQueues + workloads it looks at), not O(all workloads).
 * <p>
 * Not thread-safe: one scheduling thread owns it (Kueue's single scheduler loop).
 */
public final class SchedulerState {

    private final Clock clock;
    private final SchedulerSettings settings;
    private final Preemptor preemptor;

    private final Map<String, ResourceFlavor> flavors = new TreeMap<>();
    private final Map<String, CohortSpec> cohorts = new TreeMap<>();
    private final Map<String, ClusterQueueSpec> clusterQueues = new TreeMap<>();
    private final Map<String, LocalQueueSpec> localQueues = new HashMap<>();
    private final Map<String, Namespace> namespaces = new HashMap<>();

    private final Map<String, PendingQueue> queues = new HashMap<>();
    private final Map<String, Workload> pendingByUid = new HashMap<>();
    /** Pending workloads whose LocalQueue does not exist, by uid, in arrival order. */
    private final Map<String, Workload> orphans = new LinkedHashMap<>();
    private final Map<String, Map<String, AdmittedWorkload>> admittedByQueue = new HashMap<>();
    private final Map<String, AdmittedWorkload> admittedByUid = new HashMap<>();
    private final Map<String, Map<FlavorResource, Long>> usageByQueue = new HashMap<>();
    private final Map<String, Decision.Pending> lastReported = new HashMap<>();
    /** Pending workloads kept out of their queue until their backoff ends (Kueue's requeueState.requeueAt). */
    private final Map<String, BackingOff> backingOff = new HashMap<>();

    private record BackingOff(Workload workload, Instant until) {
    }

    /** Deactivated workloads (spec.active false) without quota: kept, not queued, until activated. */
    private final Map<String, Workload> inactive = new HashMap<>();
    /** Deactivated workloads still holding quota: the next cycle evicts them, and they are not requeued. */
    private final Set<String> deactivating = new HashSet<>();

    /**
     * Change counter: every change that can alter when a ClusterQueue's workloads are admitted (a workload
     * submitted, admitted, finished, evicted or removed) stamps the queue with the next value; a configuration
     * change stamps everything. The forecast recomputes only the cohort trees stamped since it last looked.
     */
    private long changes;
    private final Map<String, Long> changedAt = new HashMap<>();
    private long configurationChangedAt;

    private QuotaTree tree;
    private boolean drainRequested;
    /** Admission fair sharing's per-LocalQueue usage; null when the settings turn it off. */
    private final UsageLedger ledger;

    public SchedulerState(Clock clock, SchedulerSettings settings) {
        this(clock, settings, settings.admissionFairSharing() == null ? null
                : new UsageLedger(settings.admissionFairSharing()));
    }

    private SchedulerState(Clock clock, SchedulerSettings settings, UsageLedger ledger) {
        this.clock = clock;
        this.settings = settings;
        this.preemptor = new Preemptor(settings.fairSharing());
        this.ledger = ledger;
    }

    // ---- configuration: any change may make inadmissible workloads admissible (Kueue requeues on config events)

    public void applyResourceFlavor(ResourceFlavor flavor) {
        flavors.put(flavor.name(), flavor);
        configurationChanged();
    }

    public void removeResourceFlavor(String name) {
        flavors.remove(name);
        configurationChanged();
    }

    public void applyCohort(CohortSpec cohort) {
        cohorts.put(cohort.name(), cohort);
        configurationChanged();
    }

    public void removeCohort(String name) {
        cohorts.remove(name);
        configurationChanged();
    }

    public void applyClusterQueue(ClusterQueueSpec clusterQueue) {
        clusterQueues.put(clusterQueue.name(), clusterQueue);
        PendingQueue q = queues.get(clusterQueue.name());
        if (q != null) {
            q.orderBy(usageOrder(clusterQueue.name()));
        }
        drainRequested |= clusterQueue.stopPolicy() == StopPolicy.HoldAndDrain;
        configurationChanged();
    }

    public void removeClusterQueue(String name) {
        clusterQueues.remove(name);
        PendingQueue q = queues.get(name);
        if (q != null) {
            q.orderBy(null);
        }
        configurationChanged();
    }

    public void applyLocalQueue(LocalQueueSpec localQueue) {
        LocalQueueSpec previous = localQueues.put(localQueue.key(), localQueue);
        if (previous != null && !previous.clusterQueue().equals(localQueue.clusterQueue())) {
            movePendingOf(localQueue.key(), previous.clusterQueue(), localQueue.clusterQueue());
        }
        if (ledger != null && ledger.localQueue(localQueue, clock.instant())) {
            queue(localQueue.clusterQueue()).usageChanged(localQueue.key());
        }
        for (Workload w : new ArrayList<>(orphans.values())) {
            if (w.localQueueKey().equals(localQueue.key())) {
                orphans.remove(w.uid());
                queue(localQueue.clusterQueue()).add(w);
            }
        }
        drainRequested |= localQueue.stopPolicy() == StopPolicy.HoldAndDrain;
        configurationChanged();
    }

    public void removeLocalQueue(String namespace, String name) {
        LocalQueueSpec removed = localQueues.remove(namespace + "/" + name);
        if (ledger != null) {
            ledger.removeLocalQueue(namespace + "/" + name);
        }
        if (removed != null) {
            PendingQueue q = queue(removed.clusterQueue());
            for (Workload w : q.all()) {
                if (w.localQueueKey().equals(removed.key())) {
                    q.remove(w);
                    orphans.put(w.uid(), w);
                }
            }
        }
        configurationChanged();
    }

    /** Labels only decide which ClusterQueues admit the namespace's workloads: quotas and queues are untouched. */
    public void applyNamespace(Namespace namespace) {
        Namespace previous = namespace(namespace.name());
        namespaces.put(namespace.name(), namespace);
        namespaceLabelsChanged(previous, namespace);
    }

    /** The namespace keeps existing for its LocalQueues and workloads, with no labels but its name. */
    public void removeNamespace(String name) {
        Namespace removed = namespaces.remove(name);
        if (removed != null) {
            namespaceLabelsChanged(removed, namespace(name));
        }
    }

    /**
     * Kueue's cqNamespaceHandler: the inadmissible workloads of the ClusterQueues that select the namespace now but
     * did not before are tried again (those parked as InadmissibleNamespace among them); nothing admitted is evicted.
     */
    private void namespaceLabelsChanged(Namespace before, Namespace after) {
        if (before.labels().equals(after.labels())) {
            return;
        }
        configurationChangedAt = ++changes;
        for (ClusterQueueSpec cq : clusterQueues.values()) {
            if (cq.namespaceSelector().matches(after.labels()) && !cq.namespaceSelector().matches(before.labels())) {
                queue(cq.name()).requeueInadmissible();
            }
        }
    }

    private void movePendingOf(String localQueueKey, String from, String to) {
        PendingQueue source = queue(from);
        for (Workload w : source.all()) {
            if (w.localQueueKey().equals(localQueueKey)) {
                source.remove(w);
                queue(to).add(w);
                stamp(from);
                stamp(to);
            }
        }
    }

    private void configurationChanged() {
        tree = null;
        configurationChangedAt = ++changes;
        requeueInadmissible();
    }

    private void stamp(String clusterQueue) {
        changedAt.put(clusterQueue, ++changes);
    }

    // ---- workloads

    /** A workload was submitted (or requeued by the adapter) and waits for admission. */
    public void addPending(Workload workload) {
        pendingByUid.put(workload.uid(), workload);
        LocalQueueSpec lq = localQueues.get(workload.localQueueKey());
        if (lq == null) {
            orphans.put(workload.uid(), workload);
        } else {
            queue(lq.clusterQueue()).add(workload);
            stamp(lq.clusterQueue());
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
            backingOff.put(workload.uid(), new BackingOff(workload, requeueAt));
        }
    }

    /** A pending workload, active, backing off or inactive, was deleted. */
    public void removePending(String uid) {
        if (backingOff.remove(uid) != null || inactive.remove(uid) != null) {
            return;
        }
        Workload w = pendingByUid.remove(uid);
        if (w != null) {
            // A pending workload is either an orphan or in the queue of its LocalQueue's ClusterQueue.
            if (orphans.remove(uid) == null) {
                String cq = localQueues.get(w.localQueueKey()).clusterQueue();
                queue(cq).remove(w);
                stamp(cq);
            }
            lastReported.remove(uid);
        }
    }

    /** A workload holds quota: restored at start-up, or admitted outside a cycle. */
    public void addAdmitted(Workload workload, Admission admission, Instant admittedAt) {
        removePending(workload.uid());
        AdmittedWorkload admitted = new AdmittedWorkload(workload, admission, AdmittedWorkload.usageOf(admission),
                admittedAt, false);
        admittedByQueue.computeIfAbsent(admission.clusterQueue(), k -> new TreeMap<>()).put(workload.uid(), admitted);
        admittedByUid.put(workload.uid(), admitted);
        Map<FlavorResource, Long> usage = usageByQueue.computeIfAbsent(admission.clusterQueue(), k -> new HashMap<>());
        admitted.usage().forEach((fr, v) -> usage.merge(fr, v, Long::sum));
        QuotaNode node = tree == null ? null : tree.clusterQueue(admission.clusterQueue());
        if (node != null) {
            node.addUsage(admitted.usage());
        }
        if (ledger != null) {
            ledger.admitted(workload.localQueueKey(), admitted.usage());
        }
        stamp(admission.clusterQueue());
    }

    /** An admitted workload finished, failed or was deleted: its quota is free again. */
    public void workloadFinished(String uid) {
        AdmittedWorkload admitted = admittedByUid.remove(uid);
        if (admitted == null) {
            removePending(uid);
            return;
        }
        deactivating.remove(uid);
        String cq = admitted.clusterQueue();
        admittedByQueue.get(cq).remove(uid);
        Map<FlavorResource, Long> usage = usageByQueue.get(cq);
        admitted.usage().forEach((fr, v) -> usage.merge(fr, -v, Long::sum));
        QuotaNode node = tree == null ? null : tree.clusterQueue(cq);
        if (node != null) {
            node.removeUsage(admitted.usage());
        }
        if (ledger != null) {
            String lq = admitted.workload().localQueueKey();
            ledger.released(lq, admitted.usage());
            if (ledger.dropEntryPenalty(lq, uid)) {
                usageChanged(lq);
            }
        }
        stamp(cq);
        requeueInadmissible(cq);
    }

    /**
     * The eviction of a workload (preempted or drained) completed: its quota is free and it waits again, queued as
     * of now (Kueue orders evicted workloads by eviction time).
     */
    public void evictionCompleted(String uid) {
        AdmittedWorkload admitted = admittedByUid.get(uid);
        if (admitted == null) {
            return;
        }
        if (keptInactive(admitted)) {
            return;
        }
        workloadFinished(uid);
        Workload w = admitted.workload();
        addPending(w.requeuedAt(clock.instant()));
    }

    /**
     * The eviction of an admitted workload was committed (a preemption victim, or drained by HoldAndDrain): the
     * platform frees its quota at once, without waiting for its pods to go, and it waits again at its original
     * queue timestamp. The scheduling loop calls this after committing a cycle, and the forecast does the same
     * after each simulated cycle, so both treat victims alike.
     */
    public void evictionCommitted(String uid) {
        AdmittedWorkload admitted = admittedByUid.get(uid);
        if (admitted == null) {
            return;
        }
        if (keptInactive(admitted)) {
            return;
        }
        workloadFinished(uid);
        addPending(admitted.workload());
    }

    /** A deactivated workload whose eviction ended frees its quota and waits inactive, out of every queue. */
    private boolean keptInactive(AdmittedWorkload admitted) {
        if (!deactivating.contains(admitted.uid())) {
            return false;
        }
        workloadFinished(admitted.uid());
        inactive.put(admitted.uid(), admitted.workload());
        return true;
    }

    // ---- the active flag and priority changes

    /** A workload submitted (or restored) with spec.active false: kept, not queued. */
    public void addInactive(Workload workload) {
        inactive.put(workload.uid(), workload);
    }

    /**
     * spec.active became false (Kueue's workload_controller.go, "The workload is deactivated"): a pending workload
     * leaves its queue and is kept; an admitted one is evicted by the next cycle with reason Deactivated and is not
     * requeued.
     */
    public void deactivate(String uid) {
        BackingOff held = backingOff.remove(uid);
        if (held != null) {
            inactive.put(uid, held.workload());
            return;
        }
        Workload pending = pendingByUid.get(uid);
        if (pending != null) {
            removePending(uid);
            inactive.put(uid, pending);
            return;
        }
        if (admittedByUid.containsKey(uid) && deactivating.add(uid)) {
            drainRequested = true;
        }
    }

    /**
     * spec.active became true again (Kueue's "Reactivated"): a kept workload waits in its queue again at its queue
     * timestamp; an admitted one whose eviction has not been decided yet keeps its quota.
     */
    public void activate(String uid) {
        Workload kept = inactive.remove(uid);
        if (kept != null) {
            addPending(kept);
            return;
        }
        deactivating.remove(uid);
    }

    /** Whether {@code uid} is deactivated (kept, or holding quota until its eviction). */
    public boolean isInactive(String uid) {
        return inactive.containsKey(uid) || deactivating.contains(uid);
    }

    /**
     * A workload's priority changed (its kueue.x-k8s.io/priority-class label). A pending one is sorted again at once;
     * an admitted one is held with its new priority, so the next preemption search sees it, and the inadmissible
     * workloads of its cohort tree are tried again, since a lower priority may make it a victim (Kueue's
     * workload_controller.go Update, PriorityChanged).
     */
    public void changePriority(String uid, int priority) {
        Workload pending = pendingByUid.get(uid);
        if (pending != null) {
            removePending(uid);
            addPending(pending.withPriority(priority));
            return;
        }
        Workload kept = inactive.get(uid);
        if (kept != null) {
            inactive.put(uid, kept.withPriority(priority));
            return;
        }
        BackingOff held = backingOff.get(uid);
        if (held != null) {
            backingOff.put(uid, new BackingOff(held.workload().withPriority(priority), held.until()));
            return;
        }
        AdmittedWorkload admitted = admittedByUid.get(uid);
        if (admitted != null && admitted.priority() != priority) {
            AdmittedWorkload changed = admitted.withPriority(priority);
            admittedByUid.put(uid, changed);
            admittedByQueue.get(admitted.clusterQueue()).put(uid, changed);
            stamp(admitted.clusterQueue());
            requeueInadmissible(admitted.clusterQueue());
        }
    }

    /**
     * Something outside the core changed that may let inadmissible workloads in (node pool healed, capacity
     * reported): every inadmissible workload is tried again.
     */
    public void requeueInadmissible() {
        queues.values().forEach(PendingQueue::requeueInadmissible);
    }

    /** Tries again the inadmissible workloads of every ClusterQueue sharing a cohort tree with {@code clusterQueue}. */
    public void requeueInadmissible(String clusterQueue) {
        QuotaNode node = quotaTree().clusterQueue(clusterQueue);
        if (node == null) {
            queue(clusterQueue).requeueInadmissible();
            return;
        }
        for (QuotaNode q : node.root().subtreeClusterQueues()) {
            queue(q.name()).requeueInadmissible();
        }
    }

    // ---- the cycle

    /**
     * Runs one admission cycle and applies its decisions to this state. Under admission fair sharing, the entry
     * penalties of the last cycle's admissions settle first, and every LocalQueue is sampled when it is time.
     */
    public CycleResult runCycle() {
        endBackoffs();
        if (ledger != null) {
            Instant now = clock.instant();
            ledger.settle(now).forEach(this::usageChanged);
            if (ledger.sampleIfDue(now)) {
                queues.values().forEach(PendingQueue::usageChanged);
            }
        }
        return new AdmissionCycle(this).run();
    }

    /** Workloads whose backoff has ended join their queues (Kueue's BackoffFinished requeue). */
    private void endBackoffs() {
        if (backingOff.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        List<BackingOff> ended = backingOff.values().stream().filter(b -> !b.until().isAfter(now))
                .sorted(Comparator.comparing(BackingOff::until).thenComparing(b -> b.workload().uid()))
                .toList();
        for (BackingOff b : ended) {
            backingOff.remove(b.workload().uid());
            addPending(b.workload());
        }
    }

    // ---- admission fair sharing

    /**
     * Restores what was persisted of a LocalQueue's usage (after a restart or a change of leader); before its
     * workloads, or they are reordered.
     */
    public void restoreLocalQueueUsage(LocalQueueUsage usage) {
        if (ledger != null && ledger.restore(usage, clock.instant())) {
            usageChanged(usage.key());
        }
    }

    /** The LocalQueues whose consumed resources changed since the last call, for the adapter to persist. */
    public List<LocalQueueUsage> takeChangedLocalQueueUsage() {
        return ledger == null ? List.of() : ledger.takeChanged();
    }

    /**
     * A LocalQueue's consumed resources as the next cycle will order by them (entry penalties not yet settled
     * included), when admission fair sharing is on.
     */
    public Optional<LocalQueueUsage> localQueueUsage(String namespace, String name) {
        return ledger == null ? Optional.empty() : Optional.ofNullable(ledger.usage(namespace + "/" + name));
    }

    /** Whether the settings turn admission fair sharing on (for the ClusterQueues whose mode asks for it). */
    public boolean usesAdmissionFairSharing() {
        return ledger != null;
    }

    /** Whether a ClusterQueue orders its workloads by LocalQueue usage: its mode says so and the settings allow it. */
    boolean usesAdmissionFairSharing(String clusterQueue) {
        ClusterQueueSpec spec = clusterQueues.get(clusterQueue);
        return ledger != null && spec != null && spec.admissionMode() == AdmissionMode.UsageBasedAdmissionFairSharing;
    }

    /** The usage score of a LocalQueue: lower goes first; NaN when admission fair sharing is off. */
    double localQueueScore(String localQueueKey) {
        return ledger == null ? Double.NaN : ledger.score(localQueueKey);
    }

    /** Kueue's entry penalty: the workload just admitted through an admission fair sharing queue charges its LocalQueue. */
    void chargeEntryPenalty(Workload w, String clusterQueue, Map<FlavorResource, Long> usage) {
        if (usesAdmissionFairSharing(clusterQueue) && ledger.chargeEntryPenalty(w.localQueueKey(), w.uid(), usage)) {
            queue(clusterQueue).usageChanged(w.localQueueKey());
        }
    }

    private ToDoubleFunction<String> usageOrder(String clusterQueue) {
        return usesAdmissionFairSharing(clusterQueue) ? ledger::score : null;
    }

    private void usageChanged(String localQueueKey) {
        LocalQueueSpec lq = localQueues.get(localQueueKey);
        if (lq != null) {
            queue(lq.clusterQueue()).usageChanged(localQueueKey);
        }
    }

    // ---- reads for adapters and views

    /** Pending workloads of a ClusterQueue in queue order; the index is Kueue's positionInClusterQueue. */
    public List<Workload> pendingInOrder(String clusterQueue) {
        PendingQueue q = queues.get(clusterQueue);
        return q == null ? List.of() : q.inOrder();
    }

    /**
     * Pending workloads per ClusterQueue as Kueue's {@code kueue_pending_workloads} counts them:
     * {@code active} in the queue's heap, to be tried next, {@code inadmissible} parked until
     * something changes.
     */
    public Map<String, PendingCounts> pendingCounts() {
        Map<String, PendingCounts> counts = new TreeMap<>();
        queues.forEach((name, q) -> counts.put(name, new PendingCounts(q.activeCount(), q.inadmissibleCount())));
        return counts;
    }

    /** Active and inadmissible pending workloads of one ClusterQueue. */
    public record PendingCounts(int active, int inadmissible) {
        public PendingCounts plusInadmissible(int more) {
            return new PendingCounts(active, inadmissible + more);
        }
    }

    public Optional<AdmittedWorkload> admitted(String uid) {
        return Optional.ofNullable(admittedByUid.get(uid));
    }

    public Collection<AdmittedWorkload> admittedWorkloads() {
        return List.copyOf(admittedByUid.values());
    }

    /** Usage of a ClusterQueue per flavor-resource, in milli-units. */
    public Map<FlavorResource, Long> usage(String clusterQueue) {
        return Map.copyOf(usageByQueue.getOrDefault(clusterQueue, Map.of()));
    }

    /** The last pending decision reported for a workload (why it waits), if any. */
    public Optional<Decision.Pending> lastPendingDecision(String uid) {
        return Optional.ofNullable(lastReported.get(uid));
    }

    /**
     * How many pending workloads the next cycle may try (those not set aside as inadmissible). A cycle that admits,
     * preempts and evicts nothing and leaves this unchanged leaves the state as it found it: the next cycle would
     * decide the same.
     */
    public int activePendingCount() {
        int count = 0;
        for (PendingQueue q : queues.values()) {
            count += q.activeCount();
        }
        return count;
    }

    /** Pending (backing off and inactive ones too) and admitted workloads this state holds. */
    public int workloadCount() {
        return pendingByUid.size() + backingOff.size() + inactive.size() + admittedByUid.size();
    }

    /** Workloads whose LocalQueue does not exist, in arrival order. */
    public List<Workload> workloadsWithoutLocalQueue() {
        return List.copyOf(orphans.values());
    }

    // ---- copies for the forecast

    /**
     * The cohort trees: ClusterQueues sharing quota through a cohort forest, which no admission or preemption ever
     * crosses. Keyed by the root ({@code cohort/<name>}, or {@code clusterqueue/<name>} for a standalone queue and
     * for a queue without a spec), each tree's queues in name order.
     */
    public Map<String, List<String>> cohortTrees() {
        Set<String> names = new TreeSet<>(clusterQueues.keySet());
        names.addAll(queues.keySet());
        names.addAll(admittedByQueue.keySet());
        Map<String, List<String>> trees = new TreeMap<>();
        for (String cq : names) {
            QuotaNode node = quotaTree().clusterQueue(cq);
            String root = node == null || !node.hasParent() ? "clusterqueue/" + cq : "cohort/" + node.root().name();
            trees.computeIfAbsent(root, k -> new ArrayList<>()).add(cq);
        }
        return trees;
    }

    /**
     * The latest change stamp of the given ClusterQueues and the configuration: it grows whenever something that
     * decides when their workloads are admitted changes.
     */
    public long lastChange(Collection<String> clusterQueues) {
        long last = configurationChangedAt;
        for (String cq : clusterQueues) {
            last = Math.max(last, changedAt.getOrDefault(cq, 0L));
        }
        return last;
    }

    /**
     * An independent copy of the part of this state that one cohort tree sees: the tree's ClusterQueues with their
     * cohorts, the LocalQueues feeding them, their pending workloads (inadmissible sets included), admitted
     * workloads and usage, and the last pending decisions of those workloads; every flavor and namespace. The copy
     * runs its cycles on {@code clock}. Workloads and specs are immutable records, so the copy shares them.
     */
    public SchedulerState copyOf(Collection<String> clusterQueueNames, Clock clock) {
        SchedulerState copy = new SchedulerState(clock, settings, ledger == null ? null
                : ledger.copyOf(localQueues.values().stream()
                        .filter(lq -> clusterQueueNames.contains(lq.clusterQueue())).map(LocalQueueSpec::key).toList()));
        copy.flavors.putAll(flavors);
        copy.namespaces.putAll(namespaces);
        copy.drainRequested = drainRequested;
        for (String cq : clusterQueueNames) {
            ClusterQueueSpec spec = clusterQueues.get(cq);
            if (spec != null) {
                copy.clusterQueues.put(cq, spec);
                QuotaNode node = quotaTree().clusterQueue(cq);
                if (node.hasParent()) {
                    copyCohorts(node.root(), copy);
                }
            }
            PendingQueue q = queues.get(cq);
            if (q != null) {
                PendingQueue copied = q.copy(copy.ledger == null ? null : copy.ledger::score);
                copy.queues.put(cq, copied);
                for (Workload w : copied.all()) {
                    copy.pendingByUid.put(w.uid(), w);
                    Decision.Pending last = lastReported.get(w.uid());
                    if (last != null) {
                        copy.lastReported.put(w.uid(), last);
                    }
                }
            }
            Map<String, AdmittedWorkload> admitted = admittedByQueue.get(cq);
            if (admitted != null) {
                copy.admittedByQueue.put(cq, new TreeMap<>(admitted));
                admitted.forEach(copy.admittedByUid::put);
                admitted.keySet().stream().filter(deactivating::contains).forEach(copy.deactivating::add);
                copy.usageByQueue.put(cq, new HashMap<>(usageByQueue.getOrDefault(cq, Map.of())));
            }
        }
        for (LocalQueueSpec lq : localQueues.values()) {
            if (clusterQueueNames.contains(lq.clusterQueue())) {
                copy.localQueues.put(lq.key(), lq);
            }
        }
        backingOff.forEach((uid, b) -> {
            if (copy.localQueues.containsKey(b.workload().localQueueKey())) {
                copy.backingOff.put(uid, b);
            }
        });
        return copy;
    }

    private void copyCohorts(QuotaNode cohort, SchedulerState copy) {
        CohortSpec spec = cohorts.get(cohort.name());
        if (spec != null) {
            copy.cohorts.put(spec.name(), spec);
        }
        cohort.childCohorts().forEach(child -> copyCohorts(child, copy));
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

    Map<String, ClusterQueueSpec> clusterQueueSpecs() {
        return clusterQueues;
    }

    ResourceFlavor flavor(String name) {
        return flavors.get(name);
    }

    LocalQueueSpec localQueue(String key) {
        return localQueues.get(key);
    }

    Namespace namespace(String name) {
        return namespaces.getOrDefault(name, new Namespace(name, Map.of()));
    }

    Map<String, PendingQueue> queues() {
        return queues;
    }

    Collection<Workload> orphans() {
        return orphans.values();
    }

    Map<String, Map<String, AdmittedWorkload>> admittedByQueue() {
        return admittedByQueue;
    }

    PendingQueue queue(String clusterQueue) {
        PendingQueue q = queues.get(clusterQueue);
        if (q == null) {
            q = new PendingQueue();
            q.orderBy(usageOrder(clusterQueue));
            queues.put(clusterQueue, q);
        }
        return q;
    }

    QuotaTree quotaTree() {
        if (tree == null) {
            tree = QuotaTree.build(cohorts.values(), clusterQueues.values(),
                    cq -> usageByQueue.getOrDefault(cq, Map.of()));
        }
        return tree;
    }

    Snapshot snapshot() {
        return new Snapshot(quotaTree().copy(), clusterQueues, flavors, admittedByQueue, clock.instant(),
                ledger == null ? null : this::preemptionUsage);
    }

    /** A candidate's LocalQueue usage for preemption ordering: NaN unless its ClusterQueue uses admission fair sharing. */
    private double preemptionUsage(AdmittedWorkload w) {
        return usesAdmissionFairSharing(w.clusterQueue()) ? ledger.score(w.workload().localQueueKey()) : Double.NaN;
    }

    /** Whether an admitted workload was deactivated and waits for the cycle to evict it. */
    boolean deactivating(String uid) {
        return deactivating.contains(uid);
    }

    boolean takeDrainRequest() {
        boolean requested = drainRequested;
        drainRequested = false;
        return requested;
    }

    /** Records a pending decision; returns false when it repeats the last one reported for the workload. */
    boolean changed(Decision.Pending pending) {
        Decision.Pending last = lastReported.put(pending.workload().uid(), pending);
        return last == null || last.reason() != pending.reason() || !last.message().equals(pending.message())
                || last.inadmissible() != pending.inadmissible();
    }

    /** Applies an admission decided by a cycle: the workload now holds quota. */
    void assume(Workload w, Admission admission, Instant now) {
        pendingByUid.remove(w.uid());
        queue(admission.clusterQueue()).remove(w);
        lastReported.remove(w.uid());
        addAdmitted(w, admission, now);
    }

    /**
     * The eviction of an admitted workload has started (restored at start-up, or ordered outside a cycle): it keeps
     * its quota until {@link #evictionCompleted}, and preemption prefers it as a victim.
     */
    public void evictionStarted(String uid) {
        AdmittedWorkload a = admittedByUid.get(uid);
        if (a != null && !a.evicted()) {
            AdmittedWorkload evicted = a.markEvicted();
            admittedByUid.put(uid, evicted);
            admittedByQueue.get(a.clusterQueue()).put(uid, evicted);
            stamp(a.clusterQueue());
        }
    }
}
