package dev.platform.scheduler.core;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.preemption.PreemptionMessage;
import dev.platform.scheduler.core.preemption.PreemptionRequest;
import dev.platform.scheduler.core.preemption.PreemptionTarget;
import dev.platform.scheduler.core.quota.DominantResourceShare;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.Revert;
import dev.platform.scheduler.core.quota.Snapshot;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One admission cycle, in the steps of Kueue's Scheduler.schedule():
 * <ol>
 *   <li>evict what queues stopped with HoldAndDrain hold, and deactivated workloads;</li>
 *   <li>report workloads whose LocalQueue does not exist;</li>
 *   <li>snapshot the quota tree;</li>
 *   <li>in rounds: take the head of every open ClusterQueue, nominate (assign flavors, find victims), order the
 *       entries, and admit, preempt or requeue each with the fit re-checked against what the round already took;</li>
 *   <li>apply the decisions to the state.</li>
 * </ol>
 * On a ClusterQueue with admission checks an admission is Kueue's quota reservation: the decision names the checks
 * its flavors call for, and {@link dev.platform.scheduler.core.admissioncheck.CheckedReservations} turns it into an
 * admission once they are Ready. A ClusterQueue without checks takes exactly the path it took before.
 * Unlike Kueue, which pops one head per queue per cycle (kueue#14477), a queue whose head was admitted or moved to
 * the inadmissible set takes part in the next round, so a cycle admits as many workloads per queue as fit. A queue
 * whose head is preempting, skipped or blocked (StrictFIFO) stays closed until the next cycle, exactly as its head
 * would stay at the front in Kueue.
 */
public final class AdmissionCycle {

    static final String NO_LONGER_FITS = "Workload no longer fits after processing another workload";
    static final String OVERLAPPING_TARGETS = "Workload has overlapping preemption targets with another workload";
    private static final MathContext USAGE_DIGITS = new MathContext(3, RoundingMode.HALF_UP);

    /** What became of a head in a round. */
    private enum Outcome { ADMITTED, INADMISSIBLE, STAYS_AT_HEAD }

    private final SchedulerState state;
    private final boolean fairSharing;
    private final Instant now;
    private Snapshot snapshot;

    private final List<Decision.Admit> admitted = new ArrayList<>();
    private final List<Decision.Preempt> preempted = new ArrayList<>();
    private final List<Decision.Pending> pending = new ArrayList<>();
    private final List<Decision.Evict> evicted = new ArrayList<>();
    /** Victims chosen in this cycle, by uid, so that no victim's quota is counted twice. */
    private final Map<String, AdmittedWorkload> victims = new LinkedHashMap<>();
    /**
     * Quota held in this cycle by preemptors without victims: per cohort tree (by root name), per ClusterQueue.
     * One per ClusterQueue, as in Kueue where only a queue's head reserves in a cycle.
     */
    private final Map<String, Map<String, Map<FlavorResource, Long>>> reservations = new HashMap<>();
    /**
     * What was learnt about workloads that fail without victims, while the snapshot's usage stays as it was: their
     * nomination, and whether they would fit without the reservations. A backlog of alike workloads (same pod sets,
     * queue and priority) is then assigned flavors once per change of usage instead of once per workload.
     */
    private final Map<NominationKey, Entry> failedNominations = new HashMap<>();
    private final Map<NominationKey, Boolean> fitsWithoutReservations = new HashMap<>();
    /** Whether every flavor of a ClusterQueue exists: the configuration does not change during a cycle. */
    private final Map<String, Boolean> activeQueues = new HashMap<>();
    /**
     * Under admission fair sharing, the first workload this cycle admitted from each LocalQueue of a ClusterQueue,
     * with its LocalQueue's usage before the admission: what a workload left without quota waited behind.
     */
    private final Map<String, Map<String, AdmittedFirst>> admittedFirst = new HashMap<>();

    private record AdmittedFirst(Workload workload, double usage) {
    }

    /**
     * What a nomination depends on beyond the snapshot: the pod sets (flavor assignment), the priority (preemption
     * policies) and, only where withinClusterQueue is LowerOrNewerEqualPriority, the queue timestamp.
     */
    private record NominationKey(String clusterQueue, List<PodSet> podSets, int priority, Instant queuedAt) {

        static NominationKey of(Workload w, ClusterQueueSpec cq) {
            boolean timestampMatters = cq.preemption().withinClusterQueue() == WithinClusterQueuePolicy.LowerOrNewerEqualPriority;
            return new NominationKey(cq.name(), w.podSets(), w.priority(), timestampMatters ? w.queuedAt() : null);
        }
    }

    private AdmissionCycle(SchedulerState state) {
        this.state = state;
        this.fairSharing = state.settings().fairSharing();
        this.now = state.clock().instant();
    }

    /**
     * Runs one admission cycle on {@code state} and applies its decisions to it: the backoffs that ended and, under
     * admission fair sharing, the last cycle's entry penalties settle first.
     */
    public static CycleResult run(SchedulerState state) {
        state.beforeCycle();
        return new AdmissionCycle(state).run();
    }

    private CycleResult run() {
        drainStoppedQueues();
        reportMissingLocalQueues();
        snapshot = state.snapshot();
        Set<String> open = new TreeSet<>(state.queueManager().all().keySet());
        while (!open.isEmpty()) {
            open = runRound(open);
        }
        applyDecisions();
        return new CycleResult(admitted, preempted, pending, evicted);
    }

    // Step 1.
    private void drainStoppedQueues() {
        if (!state.takeDrainRequest()) {
            return;
        }
        // In ClusterQueue name order, then uid order, so that the same state drains in the same order.
        Map<String, Map<String, AdmittedWorkload>> byQueue = new TreeMap<>(state.admittedRegistry().byQueue());
        for (Map.Entry<String, Map<String, AdmittedWorkload>> e : byQueue.entrySet()) {
            ClusterQueueSpec cq = state.configuration().clusterQueues().get(e.getKey());
            boolean queueDrains = cq != null && cq.stopPolicy() == StopPolicy.HoldAndDrain;
            for (AdmittedWorkload w : List.copyOf(e.getValue().values())) {
                LocalQueueSpec lq = state.configuration().localQueue(w.workload().localQueueKey());
                boolean localDrains = lq != null && lq.stopPolicy() == StopPolicy.HoldAndDrain;
                EvictionReason reason = state.admittedRegistry().deactivating(w.uid()) ? EvictionReason.Deactivated
                        : queueDrains ? EvictionReason.ClusterQueueStopped
                        : localDrains ? EvictionReason.LocalQueueStopped : null;
                if (w.evicted() || reason == null) {
                    continue;
                }
                evicted.add(new Decision.Evict(w.workload(), e.getKey(), reason, switch (reason) {
                    case Deactivated -> "The workload is deactivated";
                    case ClusterQueueStopped -> "The ClusterQueue is stopped";
                    case LocalQueueStopped -> "The LocalQueue is stopped";
                    default -> throw new IllegalStateException("not a drain reason: " + reason);
                }));
                state.evictionStarted(w.uid());
            }
        }
    }

    // Step 2.
    private void reportMissingLocalQueues() {
        for (Workload w : state.queueManager().orphans()) {
            report(w, PendingReason.LocalQueueNotFound, "LocalQueue " + w.localQueue() + " doesn't exist", true);
        }
    }

    // Step 4.
    private Set<String> runRound(Set<String> open) {
        List<Entry> entries = new ArrayList<>();
        for (String cq : open) {
            Workload head = state.queueManager().queue(cq).head();
            if (head != null && admissibleQueue(cq, head)) {
                entries.add(nominate(head, cq));
            }
        }
        Set<String> next = new TreeSet<>();
        EntryOrder order = fairSharing ? new FairSharingOrder(entries) : new ClassicalOrder(entries);
        for (Entry e = order.next(); e != null; e = order.next()) {
            Outcome outcome = process(e);
            if (outcome != Outcome.STAYS_AT_HEAD && state.queueManager().queue(e.clusterQueue).head() != null) {
                next.add(e.clusterQueue);
            }
        }
        return next;
    }

    /**
     * Checks that don't depend on the workload's shape; when the queue itself can't admit, all of its workloads move
     * to the inadmissible set at once and wait for a configuration change.
     */
    private boolean admissibleQueue(String cqName, Workload head) {
        ClusterQueueSpec cq = state.configuration().clusterQueues().get(cqName);
        PendingReason reason = null;
        String message = null;
        if (cq == null || !flavorsExist(cq)) {
            reason = PendingReason.ClusterQueueInactive;
            message = "ClusterQueue " + cqName + " is inactive";
        } else if (cq.stopPolicy() != StopPolicy.None) {
            reason = PendingReason.QueueStopped;
            message = "ClusterQueue " + cqName + " is stopped";
        }
        if (reason == null) {
            return true;
        }
        // The inadmissible set was told why when it was parked: a stop or a missing flavor comes with a
        // configuration change, which puts every parked workload back to be told again. Only the workloads that
        // arrived since are told now, so a held queue's growing backlog is not reported again on every cycle.
        PendingQueue q = state.queueManager().queue(cqName);
        for (Workload w : q.activeInOrder()) {
            report(w, reason, message, true);
        }
        q.moveAllToInadmissible();
        return false;
    }

    private boolean flavorsExist(ClusterQueueSpec cq) {
        return activeQueues.computeIfAbsent(cq.name(), name -> cq.resourceGroups().stream()
                .flatMap(g -> g.flavors().stream()).allMatch(f -> state.configuration().flavor(f.name()) != null));
    }

    /** Kueue nominate(): the workload's own admissibility, then its flavor assignment and victims. */
    private Entry nominate(Workload w, String cqName) {
        ClusterQueueSpec cq = state.configuration().clusterQueues().get(cqName);
        LocalQueueSpec lq = state.configuration().localQueue(w.localQueueKey());
        if (lq != null && lq.stopPolicy() != StopPolicy.None) {
            return Entry.inadmissible(w, cq, PendingReason.QueueStopped, "LocalQueue " + lq.name() + " is stopped");
        }
        if (!cq.namespaceSelector().matches(state.configuration().namespace(w.namespace()).labels())) {
            return Entry.inadmissible(w, cq, PendingReason.InadmissibleNamespace,
                    "Workload namespace doesn't match ClusterQueue selector");
        }
        NominationKey key = NominationKey.of(w, cq);
        Entry failed = failedNominations.get(key);
        if (failed != null) {
            return new Entry(w, cq, failed.assignment, List.of(), failed.protectedUntil);
        }
        Entry entry = assignFlavors(w, cq);
        if (entry.targets.isEmpty() && entry.assignment.mode() != Assignment.Mode.FIT) {
            failedNominations.put(key, entry);
        }
        return entry;
    }

    /** Flavors for the whole workload, else victims, else the largest partial admission that fits or preempts. */
    private Entry assignFlavors(Workload w, ClusterQueueSpec cq) {
        FlavorAssigner assigner = new FlavorAssigner(w, cq, snapshot, state.preemptor(), fairSharing);
        int[] fullCounts = w.podSets().stream().mapToInt(PodSet::count).toArray();
        Assignment full = assigner.assign(fullCounts);
        if (full.mode() == Assignment.Mode.FIT) {
            return new Entry(w, cq, full, List.of());
        }
        if (full.mode() == Assignment.Mode.PREEMPT) {
            List<PreemptionTarget> targets = targetsFor(assigner, w, cq, full);
            if (!targets.isEmpty()) {
                return new Entry(w, cq, full, targets);
            }
        }
        if (w.allowsPartialAdmission()) {
            Entry partial = largestPartialAdmission(w, cq, assigner);
            if (partial != null) {
                return partial;
            }
        }
        if (full.mode() == Assignment.Mode.PREEMPT) {
            Instant protectedUntil = state.preemptor().protectionEnd(
                    new PreemptionRequest(w, cq.name(), full.usage(), full.needPreemption()), snapshot).orElse(null);
            return new Entry(w, cq, full, List.of(), protectedUntil);
        }
        return new Entry(w, cq, full, List.of());
    }

    private List<PreemptionTarget> targetsFor(FlavorAssigner assigner, Workload w, ClusterQueueSpec cq, Assignment a) {
        return assigner.targets(new PreemptionRequest(w, cq.name(), a.usage(), a.needPreemption()));
    }

    /**
     * Partial admission (Kueue podset_reducer.go): every pod set with a minCount shrinks in step towards it; a binary
     * search finds the smallest reduction, that is the largest counts, that fit or can preempt.
     */
    private Entry largestPartialAdmission(Workload w, ClusterQueueSpec cq, FlavorAssigner assigner) {
        List<PodSet> podSets = w.podSets();
        int steps = podSets.stream().mapToInt(ps -> ps.count() - ps.minCount()).max().orElse(0);
        int low = 1;
        int high = steps;
        Entry best = null;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            int[] counts = new int[podSets.size()];
            for (int i = 0; i < counts.length; i++) {
                PodSet ps = podSets.get(i);
                int reducible = ps.count() - ps.minCount();
                counts[i] = ps.count() - (int) Math.ceil((double) reducible * mid / steps);
            }
            Assignment a = assigner.assign(counts);
            Entry candidate = null;
            if (a.mode() == Assignment.Mode.FIT) {
                candidate = new Entry(w, cq, a, List.of());
            } else if (a.mode() == Assignment.Mode.PREEMPT) {
                List<PreemptionTarget> targets = targetsFor(assigner, w, cq, a);
                if (!targets.isEmpty()) {
                    candidate = new Entry(w, cq, a, targets);
                }
            }
            if (candidate != null) {
                best = candidate;
                high = mid - 1;
            } else {
                low = mid + 1;
            }
        }
        return best;
    }

    /** Kueue processEntry(): admit, preempt or requeue one entry against what the cycle has taken so far. */
    private Outcome process(Entry e) {
        if (e.reason != null) {
            return failed(e, e.reason, e.message);
        }
        Assignment a = e.assignment;
        if (a.mode() == Assignment.Mode.NO_FIT) {
            return failed(e, a.noFitReason(), a.message());
        }
        if (a.mode() == Assignment.Mode.PREEMPT && e.targets.isEmpty()) {
            Outcome outcome = e.protectedUntil == null ? failed(e, PendingReason.WaitingForQuota, a.message())
                    : waitingForMinimumRuntime(e);
            reserveCapacityForUnreclaimablePreempt(e);
            return outcome;
        }
        if (e.targets.stream().anyMatch(t -> victims.containsKey(t.victim().uid()))) {
            return skipped(e, OVERLAPPING_TARGETS);
        }
        if (!fitsAfterVictims(e)) {
            return skipped(e, NO_LONGER_FITS);
        }
        e.targets.forEach(t -> victims.put(t.victim().uid(), t.victim()));
        snapshot.node(e.clusterQueue).addUsage(a.usage());
        usageChanged();
        if (a.mode() == Assignment.Mode.PREEMPT) {
            return preempting(e);
        }
        Admission admission = a.admission(e.clusterQueue);
        admitted.add(new Decision.Admit(e.workload, admission, e.spec.admissionChecks().checksFor(admission)));
        if (state.fairSharing().appliesTo(e.clusterQueue)) {
            admittedFirst.computeIfAbsent(e.clusterQueue, k -> new HashMap<>()).putIfAbsent(e.workload.localQueueKey(),
                    new AdmittedFirst(e.workload, state.fairSharing().score(e.workload.localQueueKey())));
        }
        state.queueManager().queue(e.clusterQueue).remove(e.workload);
        state.fairSharing().chargeEntryPenalty(e.workload, e.clusterQueue, a.usage());
        return Outcome.ADMITTED;
    }

    /** Kueue fits(): with every victim of the cycle (and this entry's) gone, is there room. */
    private boolean fitsAfterVictims(Entry e) {
        Map<String, AdmittedWorkload> all = new LinkedHashMap<>(victims);
        e.targets.forEach(t -> all.put(t.victim().uid(), t.victim()));
        QuotaNode node = snapshot.node(e.clusterQueue);
        try (Revert ignored = snapshot.simulateRemoval(all.values())) {
            for (Map.Entry<FlavorResource, Long> u : e.assignment.usage().entrySet()) {
                if (node.available(u.getKey()) < u.getValue()) {
                    return false;
                }
            }
            return true;
        }
    }

    private Outcome preempting(Entry e) {
        String preemptorPath = snapshot.tree().path(e.clusterQueue);
        for (PreemptionTarget t : e.targets) {
            if (t.victim().evicted()) {
                continue;
            }
            String victimQueue = t.victim().clusterQueue();
            String message = PreemptionMessage.of(e.workload.uid(), t.reason().humanReadable(), preemptorPath,
                    snapshot.tree().path(victimQueue));
            preempted.add(new Decision.Preempt(t.victim().workload(), victimQueue, e.workload, e.clusterQueue,
                    t.reason(), message));
        }
        String prefix = e.assignment.message().isEmpty() ? "" : e.assignment.message() + ". ";
        report(e.workload, PendingReason.WaitingForPreemptedWorkloads,
                prefix + "Pending the preemption of " + e.targets.size() + " workload(s)", false);
        return Outcome.STAYS_AT_HEAD;
    }

    /**
     * The victims it needs are protected by their queues' minimum runtime: it waits, and its queue's inadmissible
     * workloads are tried again once the protection ends.
     */
    private Outcome waitingForMinimumRuntime(Entry e) {
        state.retryWhenProtectionEnds(e.clusterQueue, e.protectedUntil);
        String prefix = e.assignment.message().isEmpty() ? "" : e.assignment.message() + ". ";
        return failed(e, PendingReason.WaitingForMinimumRuntime, prefix + "The workloads it would preempt are within "
                + "their minimum runtime; protected until " + wholeSecondsNotBefore(e.protectedUntil));
    }

    private static Instant wholeSecondsNotBefore(Instant t) {
        Instant seconds = t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        return seconds.equals(t) ? t : seconds.plusSeconds(1);
    }

    /**
     * Kueue reserveCapacityForUnreclaimablePreempt: a preemptor without victims holds, for the rest of the cycle, the
     * quota it could get, so lower workloads elsewhere in the cohort don't take it; unless the queue can always
     * reclaim (reclaimWithinCohort Any), because then it will get the quota back by preemption anyway.
     */
    private void reserveCapacityForUnreclaimablePreempt(Entry e) {
        QuotaNode node = snapshot.node(e.clusterQueue);
        Map<String, Map<FlavorResource, Long>> inTree =
                reservations.computeIfAbsent(node.root().name(), k -> new HashMap<>());
        if (e.spec.preemption().reclaimWithinCohort() == ReclaimWithinCohortPolicy.Any || inTree.containsKey(e.clusterQueue)) {
            return;
        }
        Map<FlavorResource, Long> reserve = new LinkedHashMap<>();
        e.assignment.usage().forEach((fr, usage) -> {
            long amount;
            ResourceQuota quota = node.quota(fr);
            if (e.assignment.borrows()) {
                amount = quota == null || quota.borrowingLimit() == null ? usage
                        : Math.min(usage, quota.nominalQuota() + quota.borrowingLimit() - node.usage(fr));
            } else {
                amount = Math.max(0, Math.min(usage, node.nominal(fr) - node.usage(fr)));
            }
            reserve.put(fr, amount);
        });
        node.addUsage(reserve);
        inTree.put(e.clusterQueue, reserve);
        usageChanged();
    }

    /** The snapshot's usage changed for the rest of the cycle: what was learnt about failing workloads no longer holds. */
    private void usageChanged() {
        failedNominations.clear();
        fitsWithoutReservations.clear();
    }

    /** The head can't be admitted: BestEffortFIFO moves it aside; StrictFIFO keeps it and blocks the queue. */
    private Outcome failed(Entry e, PendingReason reason, String quotaMessage) {
        String message = reason == PendingReason.WaitingForQuota ? behindLowerUsage(e, quotaMessage) : quotaMessage;
        boolean strict = e.spec.queueingStrategy() == QueueingStrategy.StrictFIFO
                && reason != PendingReason.QueueStopped;
        if (!strict && reason == PendingReason.WaitingForQuota && admissibleWithoutReservations(e)) {
            // The quota it lacks is only held for this cycle; Kueue would nominate it against free quota next cycle.
            report(e.workload, reason, message, false);
            return Outcome.STAYS_AT_HEAD;
        }
        boolean changed = report(e.workload, reason, message, !strict);
        if (!strict) {
            state.queueManager().queue(e.clusterQueue).moveToInadmissible(e.workload);
            return Outcome.INADMISSIBLE;
        }
        if (changed) {
            for (Workload behind : state.queueManager().queue(e.clusterQueue).behindHead()) {
                report(behind, PendingReason.Blocked, "Blocked by workload " + e.workload
                        + " at the head of StrictFIFO ClusterQueue " + e.clusterQueue, false);
            }
        }
        return Outcome.STAYS_AT_HEAD;
    }

    /**
     * Would the entry fit if no quota were held by reservations in its cohort tree. Checked without a victim search,
     * to keep a failing head cheap: one that could only get in by preemption goes to the inadmissible set.
     */
    private boolean admissibleWithoutReservations(Entry e) {
        return fitsWithoutReservations.computeIfAbsent(NominationKey.of(e.workload, e.spec), k -> {
            Map<String, Map<FlavorResource, Long>> held = reservations.get(snapshot.node(e.clusterQueue).root().name());
            return held != null && held.values().stream().anyMatch(r -> r.values().stream().anyMatch(v -> v != 0))
                    && fitsWithout(held, e);
        });
    }

    private boolean fitsWithout(Map<String, Map<FlavorResource, Long>> held, Entry e) {
        held.forEach((cq, usage) -> snapshot.node(cq).removeUsage(usage));
        try {
            Assignment again = new FlavorAssigner(e.workload, e.spec, snapshot, state.preemptor(), fairSharing, false)
                    .assign(e.workload.podSets().stream().mapToInt(PodSet::count).toArray());
            return again.mode() == Assignment.Mode.FIT;
        } finally {
            held.forEach((cq, usage) -> snapshot.node(cq).addUsage(usage));
        }
    }

    /** Lost to another entry of this cycle; stays at the head and is retried next cycle. */
    private Outcome skipped(Entry e, String message) {
        report(e.workload, PendingReason.WaitingForQuota,
                message.equals(NO_LONGER_FITS) ? behindLowerUsage(e, message) : message, false);
        return Outcome.STAYS_AT_HEAD;
    }

    /**
     * Under admission fair sharing, says when quota went this cycle to a workload of another LocalQueue of the same
     * ClusterQueue whose usage was lower than this workload's LocalQueue's usage now: why another team went first.
     */
    private String behindLowerUsage(Entry e, String message) {
        Map<String, AdmittedFirst> first = admittedFirst.get(e.clusterQueue);
        if (first == null) {
            return message;
        }
        String own = e.workload.localQueueKey();
        double ownUsage = state.fairSharing().score(own);
        AdmittedFirst ahead = null;
        for (Map.Entry<String, AdmittedFirst> other : first.entrySet()) {
            AdmittedFirst candidate = other.getValue();
            if (!other.getKey().equals(own) && candidate.usage() < ownUsage && (ahead == null
                    || candidate.usage() < ahead.usage() || (candidate.usage() == ahead.usage()
                        && candidate.workload().uid().compareTo(ahead.workload().uid()) < 0))) {
                ahead = candidate;
            }
        }
        if (ahead == null) {
            return message;
        }
        return message + "; admission fair sharing admitted workload " + ahead.workload() + " of LocalQueue "
                + ahead.workload().localQueue() + " first, its usage " + usageText(ahead.usage())
                + " being below this workload's LocalQueue " + e.workload.localQueue() + " at " + usageText(ownUsage);
    }

    /** Three significant digits: enough to compare, and steady while usage decays for a few seconds. */
    private static String usageText(double usage) {
        if (Double.isInfinite(usage)) {
            return "infinity (weight 0)";
        }
        return new BigDecimal(usage, USAGE_DIGITS).stripTrailingZeros().toPlainString();
    }

    private boolean report(Workload w, PendingReason reason, String message, boolean inadmissible) {
        Decision.Pending p = new Decision.Pending(w, reason, message, inadmissible);
        if (state.queueManager().changed(p)) {
            pending.add(p);
            return true;
        }
        return false;
    }

    // Step 5.
    private void applyDecisions() {
        for (Decision.Admit a : admitted) {
            state.assume(a.workload(), a.admission(), now);
        }
        for (String uid : victims.keySet()) {
            state.evictionStarted(uid);
        }
    }

    /** A head with its nomination. {@code reason} is set when it failed before flavor assignment. */
    static final class Entry {
        final Workload workload;
        final ClusterQueueSpec spec;
        final String clusterQueue;
        final Assignment assignment;
        final List<PreemptionTarget> targets;
        final PendingReason reason;
        final String message;
        /** Set when it could preempt were its victims not protected by a minimum runtime: when that ends. */
        final Instant protectedUntil;

        Entry(Workload workload, ClusterQueueSpec spec, Assignment assignment, List<PreemptionTarget> targets) {
            this(workload, spec, assignment, targets, null, null, null);
        }

        Entry(Workload workload, ClusterQueueSpec spec, Assignment assignment, List<PreemptionTarget> targets,
              Instant protectedUntil) {
            this(workload, spec, assignment, targets, null, null, protectedUntil);
        }

        private Entry(Workload workload, ClusterQueueSpec spec, Assignment assignment, List<PreemptionTarget> targets,
                      PendingReason reason, String message, Instant protectedUntil) {
            this.workload = workload;
            this.spec = spec;
            this.clusterQueue = spec.name();
            this.assignment = assignment;
            this.targets = targets;
            this.reason = reason;
            this.message = message;
            this.protectedUntil = protectedUntil;
        }

        static Entry inadmissible(Workload w, ClusterQueueSpec spec, PendingReason reason, String message) {
            return new Entry(w, spec, null, List.of(), reason, message, null);
        }

        int borrowing() {
            return assignment == null ? 0 : assignment.borrowing();
        }

        Map<FlavorResource, Long> usage() {
            return assignment == null ? Map.of() : assignment.usage();
        }
    }

    /** The order in which a round processes its entries. */
    private interface EntryOrder {
        /** The next entry, or null when the round is done. */
        Entry next();
    }

    /**
     * Kueue's classicalIterator: entries that need no borrowing first (lower borrowing level first), then higher
     * priority, then earlier queue timestamp (FIFO), then uid.
     */
    static final Comparator<Entry> CLASSICAL = (a, b) -> {
        if (a.borrowing() != b.borrowing()) {
            return Integer.compare(a.borrowing(), b.borrowing());
        }
        if (a.workload.priority() != b.workload.priority()) {
            return Integer.compare(b.workload.priority(), a.workload.priority());
        }
        int c = a.workload.queuedAt().compareTo(b.workload.queuedAt());
        return c != 0 ? c : a.workload.uid().compareTo(b.workload.uid());
    };

    private static final class ClassicalOrder implements EntryOrder {
        private final List<Entry> sorted;
        private int index;

        ClassicalOrder(List<Entry> entries) {
            sorted = new ArrayList<>(entries);
            sorted.sort(CLASSICAL);
        }

        @Override
        public Entry next() {
            return index < sorted.size() ? sorted.get(index++) : null;
        }
    }

    /**
     * Kueue's fairSharingIterator: per cohort tree, a tournament from the root: at each cohort the child whose
     * share after admitting its candidate is lowest wins (a child not borrowing on the candidate's flavor-resources
     * first), ties by priority, queue timestamp and uid. Shares are recomputed before every pick, so each admission
     * shapes the next choice. Trees are served in name order; they share no quota, so their order doesn't matter.
     */
    private final class FairSharingOrder implements EntryOrder {
        private final Map<String, Map<String, Entry>> byRoot = new TreeMap<>();

        FairSharingOrder(List<Entry> entries) {
            for (Entry e : entries) {
                QuotaNode node = snapshot.node(e.clusterQueue);
                String root = node == null ? e.clusterQueue : node.root().name();
                byRoot.computeIfAbsent(root, k -> new LinkedHashMap<>()).put(e.clusterQueue, e);
            }
        }

        @Override
        public Entry next() {
            while (!byRoot.isEmpty()) {
                Map.Entry<String, Map<String, Entry>> first = byRoot.entrySet().iterator().next();
                Map<String, Entry> remaining = first.getValue();
                if (remaining.isEmpty()) {
                    byRoot.remove(first.getKey());
                    continue;
                }
                QuotaNode anyQueue = snapshot.node(remaining.keySet().iterator().next());
                Entry winner = anyQueue == null || !anyQueue.hasParent()
                        ? remaining.values().iterator().next()
                        : tournament(anyQueue.root(), remaining, shares(remaining));
                remaining.remove(winner.clusterQueue);
                return winner;
            }
            return null;
        }

        private record DominantShareKey(QuotaNode parent, String uid) {
        }

        /** Kueue computeDRS: the share of every node from the entry's queue up to the root's child, entry admitted. */
        private Map<DominantShareKey, DominantResourceShare> shares(Map<String, Entry> remaining) {
            Map<DominantShareKey, DominantResourceShare> shares = new HashMap<>();
            for (Entry e : remaining.values()) {
                try (Revert ignored = snapshot.simulateAddition(e.clusterQueue, e.usage())) {
                    for (QuotaNode n = snapshot.node(e.clusterQueue); n.hasParent(); n = n.parent()) {
                        shares.put(new DominantShareKey(n.parent(), e.workload.uid()), n.dominantResourceShare());
                    }
                }
            }
            return shares;
        }

        private Entry tournament(QuotaNode cohort, Map<String, Entry> candidatesByQueue,
                                 Map<DominantShareKey, DominantResourceShare> shares) {
            List<Entry> candidates = new ArrayList<>();
            for (QuotaNode child : cohort.childCohorts()) {
                Entry e = tournament(child, candidatesByQueue, shares);
                if (e != null) {
                    candidates.add(e);
                }
            }
            for (QuotaNode child : cohort.childQueues()) {
                Entry e = candidatesByQueue.get(child.name());
                if (e != null) {
                    candidates.add(e);
                }
            }
            Entry best = null;
            for (Entry e : candidates) {
                if (best == null || less(e, best, cohort, shares)) {
                    best = e;
                }
            }
            return best;
        }

        private boolean less(Entry a, Entry b, QuotaNode cohort,
                             Map<DominantShareKey, DominantResourceShare> shares) {
            var aShare = shares.get(new DominantShareKey(cohort, a.workload.uid()));
            var bShare = shares.get(new DominantShareKey(cohort, b.workload.uid()));
            boolean aBorrows = borrowsOn(aShare, a);
            boolean bBorrows = borrowsOn(bShare, b);
            if (aBorrows != bBorrows) {
                return !aBorrows;
            }
            int cmp = aShare.compareTo(bShare);
            if (cmp != 0) {
                return cmp < 0;
            }
            if (a.workload.priority() != b.workload.priority()) {
                return a.workload.priority() > b.workload.priority();
            }
            int t = a.workload.queuedAt().compareTo(b.workload.queuedAt());
            if (t != 0) {
                return t < 0;
            }
            return a.workload.uid().compareTo(b.workload.uid()) < 0;
        }

        private boolean borrowsOn(DominantResourceShare share, Entry e) {
            for (FlavorResource fr : share.borrowedFlavorResources()) {
                if (e.usage().getOrDefault(fr, 0L) > 0) {
                    return true;
                }
            }
            return false;
        }
    }

}
