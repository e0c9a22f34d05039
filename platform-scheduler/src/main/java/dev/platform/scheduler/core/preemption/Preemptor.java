package dev.platform.scheduler.core.preemption;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.Snapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Finds a minimal set of victims for a preemptor (Kueue preemption.go GetTargets): greedy removal of ordered
 * candidates until the preemptor fits, then fill-back in reverse order of every victim that is not needed.
 * Without fair sharing it follows Kueue's classical, hierarchy-aware algorithm; with fair sharing
 * {@link FairSharingPreemption}.
 */
public final class Preemptor {

    private final boolean fairSharing;

    public Preemptor(boolean fairSharing) {
        this.fairSharing = fairSharing;
    }

    /** Victims that make the request fit, or an empty list when no set of allowed victims does. */
    public List<PreemptionTarget> targets(PreemptionRequest request, Snapshot snapshot) {
        if (fairSharing) {
            return new FairSharingPreemption(request, snapshot).targets();
        }
        return classical(request, snapshot);
    }

    /**
     * When the minimum runtime of the victims the request would have, were nobody protected, ends: the latest end
     * among those protected now. Empty when the request has victims anyway, or would have none even then, or none of
     * them is protected.
     */
    public Optional<Instant> protectionEnd(PreemptionRequest request, Snapshot snapshot) {
        return targets(request.withMinimumRuntimeIgnored(), snapshot).stream()
                .map(t -> snapshot.protectedUntil(t.victim()))
                .filter(Objects::nonNull)
                .max(Comparator.naturalOrder());
    }

    /** How a candidate may be preempted (classical/hierarchical_preemption.go preemptionVariant). */
    private enum Variant {
        WITHIN_CLUSTER_QUEUE(PreemptionReason.InClusterQueue),
        HIERARCHICAL_RECLAIM(PreemptionReason.InCohortReclamation),
        RECLAIM_WITHOUT_BORROWING(PreemptionReason.InCohortReclamation),
        RECLAIM_WHILE_BORROWING(PreemptionReason.InCohortReclaimWhileBorrowing);

        final PreemptionReason reason;

        Variant(PreemptionReason reason) {
            this.reason = reason;
        }
    }

    /** A candidate; {@code lca} is the subtree root it was found under, where its validity check stops. */
    private record Candidate(AdmittedWorkload workload, QuotaNode lca, Variant variant, int kind) {
    }

    private static final int HIERARCHY = 0;
    private static final int PRIORITY = 1;
    private static final int SAME_QUEUE = 2;

    private List<PreemptionTarget> classical(PreemptionRequest request, Snapshot snapshot) {
        ClusterQueueSpec spec = snapshot.clusterQueue(request.clusterQueue());
        QuotaNode queue = snapshot.node(request.clusterQueue());

        // 1. Candidates of three kinds: over which the preemptor has a hierarchical advantage (it reclaims quota
        //    closer to it), which are decided by priority only, and those of its own ClusterQueue.
        List<Candidate> sameQueue = new ArrayList<>();
        if (spec.preemption().withinClusterQueue() != WithinClusterQueuePolicy.Never) {
            addCandidates(snapshot, queue, null, false, request, spec, sameQueue, SAME_QUEUE);
        }
        List<Candidate> hierarchy = new ArrayList<>();
        List<Candidate> byPriority = new ArrayList<>();
        if (queue.hasParent() && spec.preemption().reclaimWithinCohort() != ReclaimWithinCohortPolicy.Never) {
            QuotaFit fit = QuotaFit.of(queue, request.requests());
            boolean advantage = fit.fits();
            QuotaNode previous = null;
            for (QuotaNode subtreeRoot : queue.ancestors()) {
                collectInSubtree(snapshot, subtreeRoot, subtreeRoot, previous, advantage, request, spec, queue,
                        advantage ? hierarchy : byPriority, advantage ? HIERARCHY : PRIORITY);
                fit = QuotaFit.of(subtreeRoot, fit.remaining());
                advantage = advantage || fit.fits();
                previous = subtreeRoot;
            }
        }
        // 2. Already evicted candidates of every kind first, then the others; within that by kind (hierarchy,
        //    priority, own queue), then in candidate order. Sorted lazily: the search rarely reads far.
        List<Candidate> collected = new ArrayList<>(hierarchy.size() + byPriority.size() + sameQueue.size());
        collected.addAll(hierarchy);
        collected.addAll(byPriority);
        collected.addAll(sameQueue);
        CandidateOrdering order = CandidateOrdering.forPreemptorIn(request.clusterQueue(), snapshot);
        LazilySorted<Candidate> all = new LazilySorted<>(collected, (a, b) -> {
            if (a.workload().evicted() != b.workload().evicted()) {
                return a.workload().evicted() ? -1 : 1;
            }
            if (a.kind() != b.kind()) {
                return Integer.compare(a.kind(), b.kind());
            }
            return order.compare(a.workload(), b.workload());
        });

        // 3. Try with borrowing allowed and without, in Kueue's order for the situation.
        boolean borrowForbidden = spec.preemption().borrowWithinCohort() == BorrowWithinCohortPolicy.Never;
        boolean[] attempts;
        if ((hierarchy.isEmpty() && byPriority.isEmpty()) || (borrowForbidden && !underNominal(queue, request))) {
            attempts = new boolean[] {true};
        } else if (borrowForbidden && hierarchy.isEmpty()) {
            attempts = new boolean[] {false, true};
        } else {
            attempts = new boolean[] {true, false};
        }
        for (boolean allowBorrowing : attempts) {
            List<PreemptionTarget> targets = new ArrayList<>();
            Candidate c;
            for (int i = 0; (c = all.get(i)) != null; i++) {
                if (!isValid(c, allowBorrowing, request, snapshot)) {
                    continue;
                }
                snapshot.removeWorkload(c.workload());
                targets.add(new PreemptionTarget(c.workload(), c.variant().reason));
                if (fits(queue, request, allowBorrowing)) {
                    List<PreemptionTarget> minimal = fillBack(targets, snapshot, () -> fits(queue, request, allowBorrowing));
                    minimal.forEach(t -> snapshot.addWorkload(t.victim()));
                    return minimal;
                }
            }
            targets.forEach(t -> snapshot.addWorkload(t.victim()));
        }
        return List.of();
    }

    private static void collectInSubtree(Snapshot snapshot, QuotaNode current, QuotaNode subtreeRoot, QuotaNode skip, boolean advantage,
                                         PreemptionRequest request, ClusterQueueSpec spec, QuotaNode preemptorQueue,
                                         List<Candidate> out, int kind) {
        for (QuotaNode child : current.childCohorts()) {
            if (child == skip || child.withinNominal(request.needPreemption())) {
                continue;
            }
            collectInSubtree(snapshot, child, subtreeRoot, skip, advantage, request, spec, preemptorQueue, out, kind);
        }
        for (QuotaNode child : current.childQueues()) {
            if (child != preemptorQueue && !child.withinNominal(request.needPreemption())) {
                addCandidates(snapshot, child, subtreeRoot, advantage, request, spec, out, kind);
            }
        }
    }

    private static void addCandidates(Snapshot snapshot, QuotaNode queue, QuotaNode lca, boolean advantage, PreemptionRequest request,
                                      ClusterQueueSpec spec, List<Candidate> out, int kind) {
        if (!anyMayBeAllowed(snapshot, queue.name(), spec, request)) {
            return;
        }
        for (AdmittedWorkload w : snapshot.admitted(queue.name())) {
            if (!PreemptionPolicies.allows(spec, request.preemptor(), w)
                    || !PreemptionPolicies.usesAny(w, request.needPreemption())
                    || !request.mayConsider(w, snapshot)) {
                continue;
            }
            out.add(new Candidate(w, lca, variantOf(w, advantage, request, spec), kind));
        }
    }

    /** False when even the queue's lowest-priority workload is protected by the policy that applies to it. */
    static boolean anyMayBeAllowed(Snapshot snapshot, String queue, ClusterQueueSpec spec, PreemptionRequest request) {
        int lowest = snapshot.lowestAdmittedPriority(queue);
        int preemptor = request.preemptor().priority();
        if (queue.equals(spec.name())) {
            return switch (spec.preemption().withinClusterQueue()) {
                case Never -> false;
                case LowerPriority -> lowest < preemptor;
                case LowerOrNewerEqualPriority -> lowest <= preemptor;
            };
        }
        return switch (spec.preemption().reclaimWithinCohort()) {
            case Never -> false;
            case LowerPriority -> lowest < preemptor;
            case Any -> lowest != Integer.MAX_VALUE;
        };
    }

    private static Variant variantOf(AdmittedWorkload w, boolean advantage, PreemptionRequest request, ClusterQueueSpec spec) {
        if (w.clusterQueue().equals(spec.name())) {
            return Variant.WITHIN_CLUSTER_QUEUE;
        }
        if (advantage) {
            return Variant.HIERARCHICAL_RECLAIM;
        }
        if (spec.preemption().borrowWithinCohort() == BorrowWithinCohortPolicy.Never) {
            return Variant.RECLAIM_WITHOUT_BORROWING;
        }
        // A candidate at or above the threshold may only be preempted if the preemptor does not borrow.
        int candidate = w.priority();
        Integer threshold = spec.preemption().maxPriorityThreshold();
        boolean aboveThreshold = candidate >= request.preemptor().priority() || (threshold != null && candidate > threshold);
        return aboveThreshold ? Variant.RECLAIM_WITHOUT_BORROWING : Variant.RECLAIM_WHILE_BORROWING;
    }

    /** Preempting earlier candidates may bring a candidate's queue back within nominal; then it is no longer one. */
    private static boolean isValid(Candidate c, boolean allowBorrowing, PreemptionRequest request, Snapshot snapshot) {
        if (c.workload().clusterQueue().equals(request.clusterQueue())) {
            return true;
        }
        if (allowBorrowing && c.variant() == Variant.RECLAIM_WITHOUT_BORROWING) {
            return false;
        }
        QuotaNode queue = snapshot.node(c.workload().clusterQueue());
        if (queue.withinNominal(request.needPreemption())) {
            return false;
        }
        for (QuotaNode node : queue.ancestors()) {
            if (node == c.lca()) {
                break;
            }
            if (node.withinNominal(request.needPreemption())) {
                return false;
            }
        }
        return true;
    }

    /** preemption.go queueUnderNominalInResourcesNeedingPreemption: usage strictly below nominal. */
    private static boolean underNominal(QuotaNode queue, PreemptionRequest request) {
        for (FlavorResource fr : request.needPreemption()) {
            if (queue.nominal(fr) <= queue.usage(fr)) {
                return false;
            }
        }
        return true;
    }

    /** preemption.go workloadFits: every request within what the queue can use, optionally without borrowing. */
    static boolean fits(QuotaNode queue, PreemptionRequest request, boolean allowBorrowing) {
        for (Map.Entry<FlavorResource, Long> e : request.requests().entrySet()) {
            if (!allowBorrowing && queue.borrowingWith(e.getKey(), e.getValue())) {
                return false;
            }
            if (e.getValue() > queue.available(e.getKey())) {
                return false;
            }
        }
        return true;
    }

    /** Re-adds victims from the second-to-last backwards, keeping out only those still needed. */
    static List<PreemptionTarget> fillBack(List<PreemptionTarget> targets, Snapshot snapshot,
                                           java.util.function.BooleanSupplier fits) {
        List<PreemptionTarget> kept = new ArrayList<>(targets);
        for (int i = kept.size() - 2; i >= 0; i--) {
            AdmittedWorkload victim = kept.get(i).victim();
            snapshot.addWorkload(victim);
            if (fits.getAsBoolean()) {
                kept.remove(i);
            } else {
                snapshot.removeWorkload(victim);
            }
        }
        return kept;
    }

    /** Kueue QuantitiesFitInQuota: do the requests fit in the node's subtree quota, and what is left for above. */
    record QuotaFit(boolean fits, Map<FlavorResource, Long> remaining) {
        static QuotaFit of(QuotaNode node, Map<FlavorResource, Long> requests) {
            boolean fits = true;
            Map<FlavorResource, Long> remaining = new HashMap<>();
            for (Map.Entry<FlavorResource, Long> e : requests.entrySet()) {
                FlavorResource fr = e.getKey();
                if (node.subtreeQuota(fr) < node.usage(fr) + e.getValue()) {
                    fits = false;
                }
                remaining.put(fr, Math.max(0, e.getValue() - node.localAvailable(fr)));
            }
            return new QuotaFit(fits, remaining);
        }
    }
}
