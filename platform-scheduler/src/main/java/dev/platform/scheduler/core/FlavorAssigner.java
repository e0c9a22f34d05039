package dev.platform.scheduler.core;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorFungibility;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.FungibilityPolicy;
import dev.platform.scheduler.core.model.FungibilityPreference;
import dev.platform.scheduler.core.model.LabelRequirement;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.Taint;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.preemption.PreemptionRequest;
import dev.platform.scheduler.core.preemption.PreemptionTarget;
import dev.platform.scheduler.core.preemption.Preemptor;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.Revert;
import dev.platform.scheduler.core.quota.Snapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Chooses a flavor per pod set and resource group (Kueue flavorassigner.go): flavors are tried in the order the
 * ClusterQueue lists them; a flavor must match the pod set's node selector and required node affinity (on the
 * flavor's own label keys) and have every NoSchedule/NoExecute taint tolerated; quota decides between fit, preempt
 * and no fit, and flavorFungibility decides whether to stop at a flavor that needs borrowing or preemption.
 */
final class FlavorAssigner {

    /** Kueue's preemptionMode, worst first. */
    private enum QuotaMode { NO_FIT, NO_CANDIDATES, PREEMPT, RECLAIM, FIT }

    /** A quota mode with the borrowing level it implies (Kueue granularMode). */
    private record Granular(QuotaMode mode, int borrow) {
        static final Granular WORST = new Granular(QuotaMode.NO_FIT, Integer.MAX_VALUE);
        static final Granular BEST = new Granular(QuotaMode.FIT, 0);

        boolean isPreempt() {
            return mode == QuotaMode.PREEMPT || mode == QuotaMode.RECLAIM;
        }
    }

    private record ResourceCheck(QuotaMode mode, int borrow, String reason, PendingReason noFitReason) {
    }

    private final Workload workload;
    private final ClusterQueueSpec spec;
    private final Snapshot snapshot;
    private final Preemptor preemptor;
    private final boolean fairSharing;
    private final QuotaNode queue;
    /** False to only tell fit from no fit, without searching victims (preemption then counts as no candidates). */
    private final boolean searchVictims;

    FlavorAssigner(Workload workload, ClusterQueueSpec spec, Snapshot snapshot, Preemptor preemptor, boolean fairSharing) {
        this(workload, spec, snapshot, preemptor, fairSharing, true);
    }

    FlavorAssigner(Workload workload, ClusterQueueSpec spec, Snapshot snapshot, Preemptor preemptor, boolean fairSharing,
                   boolean searchVictims) {
        this.searchVictims = searchVictims;
        this.workload = workload;
        this.spec = spec;
        this.snapshot = snapshot;
        this.preemptor = preemptor;
        this.fairSharing = fairSharing;
        this.queue = snapshot.node(spec.name());
    }

    /** Assigns flavors for the given pod counts (one per pod set). */
    Assignment assign(int[] counts) {
        Map<FlavorResource, Long> usage = new TreeMap<>();
        Set<FlavorResource> needPreemption = new TreeSet<>();
        List<PodSetAssignment> podSets = new ArrayList<>();
        List<String> messages = new ArrayList<>();
        Assignment.Mode mode = Assignment.Mode.FIT;
        PendingReason noFitReason = null;
        int borrowing = 0;
        for (int i = 0; i < workload.podSets().size(); i++) {
            PodSet ps = workload.podSets().get(i);
            int count = counts[i];
            Map<String, String> flavors = new TreeMap<>();
            Map<String, Long> podSetUsage = new TreeMap<>();
            List<String> reasons = new ArrayList<>();
            Assignment.Mode podSetMode = Assignment.Mode.FIT;
            PendingReason podSetNoFit = null;
            for (Map.Entry<ResourceGroup, List<String>> group : groupsOf(ps, reasons).entrySet()) {
                GroupChoice choice = chooseFlavor(ps, count, group.getKey(), group.getValue(), usage, reasons);
                if (choice.flavor() == null) {
                    podSetMode = Assignment.Mode.NO_FIT;
                    podSetNoFit = worse(podSetNoFit, choice.noFitReason());
                    break;
                }
                for (String resource : group.getValue()) {
                    long total = ps.requests().get(resource) * count;
                    FlavorResource fr = new FlavorResource(choice.flavor(), resource);
                    flavors.put(resource, choice.flavor());
                    podSetUsage.put(resource, total);
                    usage.merge(fr, total, Long::sum);
                    if (choice.preemptResources().contains(resource)) {
                        needPreemption.add(fr);
                    }
                }
                borrowing = Math.max(borrowing, choice.mode().borrow());
                if (choice.mode().mode() != QuotaMode.FIT && podSetMode == Assignment.Mode.FIT) {
                    podSetMode = Assignment.Mode.PREEMPT;
                }
            }
            if (podSetMode == Assignment.Mode.NO_FIT && podSetNoFit == null) {
                podSetNoFit = PendingReason.NoMatchingFlavor;
            }
            if (podSetMode != Assignment.Mode.FIT && !reasons.isEmpty()) {
                messages.add("couldn't assign flavors to pod set " + ps.name() + ": " + String.join(", ", reasons));
            }
            if (podSetMode.ordinal() < mode.ordinal()) {
                mode = podSetMode;
            }
            noFitReason = worse(noFitReason, podSetNoFit);
            podSets.add(new PodSetAssignment(ps.name(), count, flavors, podSetUsage));
        }
        return new Assignment(podSets, mode, borrowing, usage, needPreemption,
                mode == Assignment.Mode.NO_FIT ? noFitReason : null, String.join("; ", messages));
    }

    /** ExceedsMaxQuota is the most severe, then WaitingForQuota, then NoMatchingFlavor (flavorassigner reasonSeverity). */
    private static PendingReason worse(PendingReason a, PendingReason b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return severity(a) >= severity(b) ? a : b;
    }

    private static int severity(PendingReason r) {
        return switch (r) {
            case ExceedsMaxQuota -> 3;
            case WaitingForQuota -> 2;
            case NoMatchingFlavor -> 1;
            default -> 0;
        };
    }

    /** The pod set's requested resources grouped by the resource group covering them, in request-name order. */
    private Map<ResourceGroup, List<String>> groupsOf(PodSet ps, List<String> reasons) {
        Map<ResourceGroup, List<String>> groups = new LinkedHashMap<>();
        for (String resource : new TreeSet<>(ps.requests().keySet())) {
            if (ps.requests().get(resource) == 0) {
                continue;
            }
            ResourceGroup g = spec.groupFor(resource).orElse(null);
            if (g == null) {
                reasons.add("resource " + resource + " unavailable in ClusterQueue");
                groups.put(MISSING, List.of(resource));
                return groups;
            }
            groups.computeIfAbsent(g, k -> new ArrayList<>()).add(resource);
        }
        return groups;
    }

    private static final ResourceGroup MISSING = new ResourceGroup(List.of(), List.of());

    /** The flavor chosen for a resource group; no flavor (null) when none fits, with the reason why. */
    private record GroupChoice(String flavor, Granular mode, Set<String> preemptResources, PendingReason noFitReason) {
        static GroupChoice none(PendingReason reason) {
            return new GroupChoice(null, Granular.WORST, Set.of(), reason);
        }
    }

    /** findFlavorForPodSets: the best flavor of the group under the fungibility rules. */
    private GroupChoice chooseFlavor(PodSet ps, int count, ResourceGroup group, List<String> resources,
                                     Map<FlavorResource, Long> assumed, List<String> reasons) {
        if (group == MISSING) {
            return GroupChoice.none(PendingReason.NoMatchingFlavor);
        }
        GroupChoice best = null;
        Granular bestMode = Granular.WORST;
        PendingReason noFit = null;
        for (FlavorQuotas flavorQuotas : group.flavors()) {
            String flavor = flavorQuotas.name();
            String mismatch = mismatch(ps, flavor);
            if (mismatch != null) {
                reasons.add(mismatch);
                noFit = worse(noFit, PendingReason.NoMatchingFlavor);
                continue;
            }
            Granular representative = Granular.BEST;
            Set<String> preempt = new LinkedHashSet<>();
            for (String resource : resources) {
                FlavorResource fr = new FlavorResource(flavor, resource);
                long previous = assumed.getOrDefault(fr, 0L);
                ResourceCheck check = fitsQuota(fr, previous, ps.requests().get(resource) * count);
                if (check.reason() != null) {
                    reasons.add(check.reason());
                }
                if (check.noFitReason() != null) {
                    noFit = worse(noFit, check.noFitReason());
                }
                Granular mode = new Granular(check.mode(), check.borrow());
                if (isPreferred(representative, mode)) {
                    representative = mode;
                }
                if (check.mode() != QuotaMode.FIT) {
                    preempt.add(resource);
                }
                if (representative.mode() == QuotaMode.NO_FIT) {
                    break;
                }
            }
            GroupChoice choice = new GroupChoice(flavor, representative, preempt, null);
            if (!shouldTryNextFlavor(representative)) {
                best = choice;
                bestMode = representative;
                break;
            }
            if (isPreferred(representative, bestMode)) {
                best = choice;
                bestMode = representative;
            }
        }
        if (best == null || bestMode.mode() == QuotaMode.NO_FIT) {
            return GroupChoice.none(noFit == null ? PendingReason.NoMatchingFlavor : noFit);
        }
        return best;
    }

    /** Why a flavor cannot host the pod set, or null when it can (checkFlavorForPodSets). */
    private String mismatch(PodSet ps, String flavorName) {
        ResourceFlavor flavor = snapshot.flavor(flavorName);
        if (flavor == null) {
            return "flavor " + flavorName + " not found";
        }
        for (Taint taint : flavor.nodeTaints()) {
            if (taint.repels() && ps.tolerations().stream().noneMatch(t -> t.tolerates(taint))) {
                return "untolerated taint " + taint + " in flavor " + flavorName;
            }
        }
        Map<String, String> labels = flavor.nodeLabels();
        for (Map.Entry<String, String> e : ps.nodeSelector().entrySet()) {
            if (labels.containsKey(e.getKey()) && !labels.get(e.getKey()).equals(e.getValue())) {
                return "flavor " + flavorName + " doesn't match node affinity";
            }
        }
        if (!matchesAffinity(ps.requiredNodeAffinity(), labels)) {
            return "flavor " + flavorName + " doesn't match node affinity";
        }
        return null;
    }

    /** Terms are ORed; only requirements on the flavor's label keys count, and a term left empty matches. */
    private static boolean matchesAffinity(List<List<LabelRequirement>> terms, Map<String, String> labels) {
        if (terms.isEmpty()) {
            return true;
        }
        boolean anyMatch = false;
        for (List<LabelRequirement> term : terms) {
            List<LabelRequirement> relevant = term.stream().filter(r -> labels.containsKey(r.key())).toList();
            if (relevant.isEmpty()) {
                return true;
            }
            anyMatch |= relevant.stream().allMatch(r -> r.matches(labels));
        }
        return anyMatch;
    }

    /** fitsResourceQuota: fit now, fit by preemption, or never (beyond what the cohort could ever lend). */
    private ResourceCheck fitsQuota(FlavorResource fr, long previous, long request) {
        long val = previous + request;
        long maxCapacity = queue.potentialAvailable(fr);
        if (val > maxCapacity) {
            // Concatenation, not String.format: this runs for every failing head of a large backlog.
            // Kueue's check, in words a user reads: "previously considered podsets requests (0) + current podset
            // request (64) > maximum capacity (32)" says the same.
            String asked = previous == 0 ? "the pod set asks for " + Quantities.format(request)
                    : "the pod sets ask for " + Quantities.format(val) + " together (" + Quantities.format(previous)
                    + " for those before this one)";
            return new ResourceCheck(QuotaMode.NO_FIT, 0, "insufficient quota for " + fr.resource() + " in flavor "
                    + fr.flavor() + ": " + asked + ", more than the ClusterQueue can ever give (maximum capacity "
                    + Quantities.format(maxCapacity) + ": its nominal quota plus what it may borrow)",
                    PendingReason.ExceedsMaxQuota);
        }
        int[] height = new int[1];
        boolean mayReclaimInHierarchy = heightOfLowestSubtreeThatFits(queue, fr, val, height);
        long available = queue.available(fr);
        if (val <= available) {
            return new ResourceCheck(QuotaMode.FIT, height[0], null, null);
        }
        String reason = "insufficient unused quota for " + fr.resource() + " in flavor " + fr.flavor() + ", "
                + Quantities.format(val - available) + " more needed";
        if (queue.nominal(fr) >= val || mayReclaimInHierarchy || canPreemptWhileBorrowing()) {
            return searchVictims ? simulatePreemption(fr, val, reason)
                    : new ResourceCheck(QuotaMode.NO_CANDIDATES, height[0], reason, null);
        }
        return new ResourceCheck(QuotaMode.NO_FIT, height[0], reason, PendingReason.WaitingForQuota);
    }

    private boolean canPreemptWhileBorrowing() {
        return spec.preemption().borrowWithinCohort() != BorrowWithinCohortPolicy.Never
                || (fairSharing && spec.preemption().reclaimWithinCohort() != ReclaimWithinCohortPolicy.Never);
    }

    /** The oracle's answers: for a single-resource workload the final victim search asks one of them again. */
    private final Map<PreemptionRequest, List<PreemptionTarget>> oracleAnswers = new java.util.HashMap<>();

    /** Victims for {@code request}, reusing the oracle's answer when the question is the same. */
    List<PreemptionTarget> targets(PreemptionRequest request) {
        List<PreemptionTarget> known = oracleAnswers.get(request);
        return known != null ? known : preemptor.targets(request, snapshot);
    }

    /** Kueue's preemption oracle: would preemption for this one flavor-resource find victims, and whose. */
    private ResourceCheck simulatePreemption(FlavorResource fr, long val, String reason) {
        PreemptionRequest request = new PreemptionRequest(workload, spec.name(), Map.of(fr, val), Set.of(fr));
        List<PreemptionTarget> targets = preemptor.targets(request, snapshot);
        oracleAnswers.put(request, targets);
        int[] height = new int[1];
        if (targets.isEmpty()) {
            heightOfLowestSubtreeThatFits(queue, fr, val, height);
            return new ResourceCheck(QuotaMode.NO_CANDIDATES, height[0], reason, null);
        }
        try (Revert ignored = snapshot.simulateRemoval(targets.stream().map(PreemptionTarget::victim).toList())) {
            heightOfLowestSubtreeThatFits(queue, fr, val, height);
        }
        boolean own = targets.stream().anyMatch(t -> t.victim().clusterQueue().equals(spec.name()));
        return new ResourceCheck(own ? QuotaMode.PREEMPT : QuotaMode.RECLAIM, height[0], reason, null);
    }

    /**
     * Kueue FindHeightOfLowestSubtreeThatFits: the height of the lowest node whose quota covers {@code val}, written
     * to {@code height[0]}; returns whether that node is below the root (so quota can be reclaimed in the hierarchy).
     */
    static boolean heightOfLowestSubtreeThatFits(QuotaNode queue, FlavorResource fr, long val, int[] height) {
        if (!queue.borrowingWith(fr, val) || !queue.hasParent()) {
            height[0] = 0;
            return queue.hasParent();
        }
        long remaining = val - queue.localAvailable(fr);
        for (QuotaNode node : queue.ancestors()) {
            if (!node.borrowingWith(fr, remaining)) {
                height[0] = node.height();
                return node.hasParent();
            }
            remaining -= node.localAvailable(fr);
        }
        height[0] = queue.root().height();
        return false;
    }

    /** isPreferred: is {@code a} better than {@code b} under the queue's fungibility preference. */
    private boolean isPreferred(Granular a, Granular b) {
        if (a.mode() == QuotaMode.NO_FIT) {
            return false;
        }
        if (b.mode() == QuotaMode.NO_FIT) {
            return true;
        }
        boolean aNone = a.mode() == QuotaMode.NO_CANDIDATES;
        boolean bNone = b.mode() == QuotaMode.NO_CANDIDATES;
        if (aNone != bNone) {
            return !aNone;
        }
        if (spec.flavorFungibility().preference() == FungibilityPreference.PreemptionOverBorrowing) {
            if (a.borrow() != b.borrow()) {
                return a.borrow() < b.borrow();
            }
            return a.mode().ordinal() > b.mode().ordinal();
        }
        if (a.mode() != b.mode()) {
            return a.mode().ordinal() > b.mode().ordinal();
        }
        return a.borrow() < b.borrow();
    }

    private boolean shouldTryNextFlavor(Granular mode) {
        if (mode.mode() == QuotaMode.NO_FIT || mode.mode() == QuotaMode.NO_CANDIDATES) {
            return true;
        }
        FlavorFungibility f = spec.flavorFungibility();
        if (mode.isPreempt() && f.whenCanPreempt() == FungibilityPolicy.TryNextFlavor) {
            return true;
        }
        return mode.borrow() > 0 && f.whenCanBorrow() == FungibilityPolicy.TryNextFlavor;
    }
}
