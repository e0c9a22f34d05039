package dev.platform.scheduler.core.preemption;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.quota.DominantResourceShare;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.Revert;
import dev.platform.scheduler.core.quota.Snapshot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Preemption under fair sharing (Kueue preemption.go fairPreemptions). Target ClusterQueues are visited by highest
 * dominant resource share first; a candidate of another queue is preempted when strategy S2-a
 * LessThanOrEqualToFinalShare holds (preemptor's share after admission &lt;= target's share after removal), and, for
 * those that failed it, S2-b LessThanInitialShare (preemptor's share &lt; target's share before removal). A
 * preemptor that stays within its nominal quota reclaims without consulting shares (FairSharingPreemptWithinNominal).
 */
final class FairSharingPreemption {

    private final PreemptionRequest request;
    private final Snapshot snapshot;
    private final ClusterQueueSpec spec;
    private final QuotaNode preemptorQueue;

    FairSharingPreemption(PreemptionRequest request, Snapshot snapshot) {
        this.request = request;
        this.snapshot = snapshot;
        this.spec = snapshot.clusterQueue(request.clusterQueue());
        this.preemptorQueue = snapshot.node(request.clusterQueue());
    }

    List<PreemptionTarget> targets() {
        Map<String, List<AdmittedWorkload>> candidates = candidates();
        if (candidates.isEmpty()) {
            return List.of();
        }
        List<PreemptionTarget> targets = new ArrayList<>();
        boolean fits;
        // Shares must include the incoming workload.
        try (Revert ignored = snapshot.simulateAddition(request.clusterQueue(), request.requests())) {
            List<AdmittedWorkload> retry = new ArrayList<>();
            fits = lessThanOrEqualToFinalShare(candidates, targets, retry);
            if (!fits) {
                fits = lessThanInitialShare(retry, targets);
            }
        }
        if (!fits) {
            targets.forEach(t -> snapshot.addWorkload(t.victim()));
            return List.of();
        }
        List<PreemptionTarget> minimal = Preemptor.fillBack(targets, snapshot,
                () -> Preemptor.fits(preemptorQueue, request, true));
        minimal.forEach(t -> snapshot.addWorkload(t.victim()));
        return minimal;
    }

    /**
     * preemption.go findCandidates: the own queue under withinClusterQueue, borrowing cohort members under reclaim;
     * grouped by ClusterQueue, the way the target ordering consumes them.
     */
    private Map<String, List<AdmittedWorkload>> candidates() {
        Map<String, List<AdmittedWorkload>> out = new LinkedHashMap<>();
        if (spec.preemption().withinClusterQueue() != WithinClusterQueuePolicy.Never) {
            addAllowed(preemptorQueue, out);
        }
        if (preemptorQueue.hasParent() && spec.preemption().reclaimWithinCohort() != ReclaimWithinCohortPolicy.Never) {
            for (QuotaNode q : preemptorQueue.root().subtreeClusterQueues()) {
                if (q != preemptorQueue && isBorrowing(q)) {
                    addAllowed(q, out);
                }
            }
        }
        return out;
    }

    private void addAllowed(QuotaNode queue, Map<String, List<AdmittedWorkload>> out) {
        if (!Preemptor.anyMayBeAllowed(snapshot, queue.name(), spec, request)) {
            return;
        }
        List<AdmittedWorkload> allowed = new ArrayList<>();
        for (AdmittedWorkload w : snapshot.admitted(queue.name())) {
            if (PreemptionPolicies.allows(spec, request.preemptor(), w)
                    && PreemptionPolicies.usesAny(w, request.needPreemption())
                    && request.mayConsider(w, snapshot)) {
                allowed.add(w);
            }
        }
        if (!allowed.isEmpty()) {
            out.put(queue.name(), allowed);
        }
    }

    private boolean isBorrowing(QuotaNode queue) {
        for (FlavorResource fr : request.needPreemption()) {
            if (queue.borrowing(fr)) {
                return true;
            }
        }
        return false;
    }

    /** Fits once the preemptor's own simulated usage is taken out again (workloadFitsForFairSharing). */
    private boolean fitsWithoutOwnUsage() {
        try (Revert ignored = snapshot.simulateUsageRemoval(request.clusterQueue(), request.requests())) {
            return Preemptor.fits(preemptorQueue, request, true);
        }
    }

    private boolean withinNominal() {
        for (FlavorResource fr : request.needPreemption()) {
            if (preemptorQueue.borrowing(fr)) {
                return false;
            }
        }
        return true;
    }

    private void take(AdmittedWorkload victim, PreemptionReason reason, List<PreemptionTarget> targets) {
        snapshot.removeWorkload(victim);
        targets.add(new PreemptionTarget(victim, reason));
    }

    /** Rule S2-a; candidates that fail it are collected into {@code retry} for rule S2-b. */
    private boolean lessThanOrEqualToFinalShare(Map<String, List<AdmittedWorkload>> candidates,
                                                List<PreemptionTarget> targets, List<AdmittedWorkload> retry) {
        boolean preemptorWithinNominal = withinNominal();
        TargetQueueOrdering ordering = new TargetQueueOrdering(candidates);
        for (QuotaNode target = ordering.next(); target != null; target = ordering.next()) {
            if (target == preemptorQueue) {
                take(ordering.pop(target), PreemptionReason.InClusterQueue, targets);
                if (fitsWithoutOwnUsage()) {
                    return true;
                }
                continue;
            }
            if (preemptorWithinNominal) {
                take(ordering.pop(target), PreemptionReason.InCohortReclamation, targets);
                if (fitsWithoutOwnUsage()) {
                    return true;
                }
                continue;
            }
            QuotaNode[] almost = almostLeastCommonAncestors(target);
            DominantResourceShare preemptorNew = almost[0].dominantResourceShare();
            DominantResourceShare targetOld = almost[1].dominantResourceShare();
            while (ordering.hasWorkload(target)) {
                AdmittedWorkload candidate = ordering.pop(target);
                DominantResourceShare targetNew;
                try (Revert ignored = snapshot.simulateRemoval(List.of(candidate))) {
                    targetNew = almost[1].dominantResourceShare();
                }
                if (preemptorNew.compareTo(targetNew) <= 0) {
                    take(candidate, PreemptionReason.InCohortFairSharing, targets);
                    if (fitsWithoutOwnUsage()) {
                        return true;
                    }
                    // Shares changed: the next target queue may be a different one.
                    break;
                }
                retry.add(candidate);
            }
        }
        return false;
    }

    /** Rule S2-b: one candidate per target queue whose share before removal exceeds the preemptor's. */
    private boolean lessThanInitialShare(List<AdmittedWorkload> retry, List<PreemptionTarget> targets) {
        Map<String, List<AdmittedWorkload>> byQueue = new LinkedHashMap<>();
        retry.forEach(w -> byQueue.computeIfAbsent(w.clusterQueue(), k -> new ArrayList<>()).add(w));
        TargetQueueOrdering ordering = new TargetQueueOrdering(byQueue);
        for (QuotaNode target = ordering.next(); target != null; target = ordering.next()) {
            QuotaNode[] almost = almostLeastCommonAncestors(target);
            boolean passed = almost[0].dominantResourceShare().compareTo(almost[1].dominantResourceShare()) < 0;
            AdmittedWorkload candidate = ordering.pop(target);
            if (passed) {
                take(candidate, PreemptionReason.InCohortFairSharing, targets);
                if (fitsWithoutOwnUsage()) {
                    return true;
                }
            }
            ordering.drop(target);
        }
        return false;
    }

    /** The children of the least common ancestor on the preemptor's and on the target's side. */
    private QuotaNode[] almostLeastCommonAncestors(QuotaNode target) {
        List<QuotaNode> preemptorPath = new ArrayList<>();
        preemptorPath.add(preemptorQueue);
        preemptorPath.addAll(preemptorQueue.ancestors());
        Set<QuotaNode> onPreemptorPath = new HashSet<>(preemptorPath);
        QuotaNode targetSide = target;
        QuotaNode lca = target.parent();
        while (!onPreemptorPath.contains(lca)) {
            targetSide = lca;
            lca = lca.parent();
        }
        QuotaNode preemptorSide = preemptorPath.get(preemptorPath.indexOf(lca) - 1);
        return new QuotaNode[] {preemptorSide, targetSide};
    }

    /**
     * Kueue's TargetClusterQueueOrdering (fairsharing/ordering.go): walks down from the root choosing the child with
     * the highest share that still has candidates; cohorts and queues that stop borrowing are pruned. The preemptor's
     * own queue and its ancestors stay until they run out of candidates.
     */
    private final class TargetQueueOrdering {

        /** Each queue's candidates in candidate order, read from a cursor. */
        private final Map<String, LazilySorted<AdmittedWorkload>> byQueue = new LinkedHashMap<>();
        private final Map<String, Integer> cursor = new HashMap<>();
        private final Set<QuotaNode> pruned = new HashSet<>();
        private final Set<QuotaNode> preemptorAncestors = new HashSet<>(preemptorQueue.ancestors());
        private final Comparator<AdmittedWorkload> order = CandidateOrdering.forPreemptorIn(request.clusterQueue(), snapshot);

        TargetQueueOrdering(Map<String, List<AdmittedWorkload>> candidates) {
            // Sorted lazily: a target queue usually gives up only its first few candidates.
            candidates.forEach((queue, list) -> byQueue.put(queue, new LazilySorted<>(list, order)));
        }

        private AdmittedWorkload peek(QuotaNode queue) {
            LazilySorted<AdmittedWorkload> q = byQueue.get(queue.name());
            return q == null ? null : q.get(cursor.getOrDefault(queue.name(), 0));
        }

        boolean hasWorkload(QuotaNode queue) {
            return peek(queue) != null;
        }

        AdmittedWorkload pop(QuotaNode queue) {
            AdmittedWorkload head = peek(queue);
            cursor.merge(queue.name(), 1, Integer::sum);
            return head;
        }

        void drop(QuotaNode queue) {
            pruned.add(queue);
        }

        /** The next target queue, or null when every node is pruned. */
        QuotaNode next() {
            if (!preemptorQueue.hasParent()) {
                return !pruned.contains(preemptorQueue) && hasWorkload(preemptorQueue) ? preemptorQueue : null;
            }
            QuotaNode root = preemptorQueue.root();
            while (!pruned.contains(root)) {
                QuotaNode found = nextTarget(root);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }

        private QuotaNode nextTarget(QuotaNode cohort) {
            QuotaNode highestQueue = null;
            DominantResourceShare highestQueueShare = DominantResourceShare.NEGATIVE;
            for (QuotaNode q : cohort.childQueues()) {
                if (pruned.contains(q)) {
                    continue;
                }
                DominantResourceShare share = q.dominantResourceShare();
                int cmp = share.compareTo(highestQueueShare);
                if ((!share.isBorrowing() && q != preemptorQueue) || !hasWorkload(q)) {
                    pruned.add(q);
                } else if (cmp == 0 && highestQueue != null) {
                    AdmittedWorkload a = peek(q);
                    AdmittedWorkload b = peek(highestQueue);
                    if (order.compare(a, b) < 0) {
                        highestQueue = q;
                    }
                } else if (cmp > 0) {
                    highestQueueShare = share;
                    highestQueue = q;
                }
            }
            QuotaNode highestCohort = null;
            DominantResourceShare highestCohortShare = DominantResourceShare.NEGATIVE;
            for (QuotaNode c : cohort.childCohorts()) {
                if (pruned.contains(c)) {
                    continue;
                }
                DominantResourceShare share = c.dominantResourceShare();
                if (!share.isBorrowing() && !preemptorAncestors.contains(c)) {
                    pruned.add(c);
                } else if (share.compareTo(highestCohortShare) >= 0) {
                    highestCohortShare = share;
                    highestCohort = c;
                }
            }
            if (highestCohort == null && highestQueue == null) {
                pruned.add(cohort);
                return null;
            }
            // Ties go to the cohort: the most unfair node may be inside it.
            if (highestCohort != null && highestCohortShare.compareTo(highestQueueShare) >= 0) {
                return nextTarget(highestCohort);
            }
            return highestQueue;
        }
    }
}
