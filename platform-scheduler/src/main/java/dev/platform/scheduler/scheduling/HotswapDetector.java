package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.cluster.NodePoolInventory.UnhealthyPool;
import dev.platform.scheduler.cluster.NodePoolInventory;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.QueueOrder;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.model.UnsavedWork;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SlicePlacement.VictimOrder;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.core.preemption.PreemptionMessage;
import dev.platform.scheduler.hotswap.HotswapEvent;
import dev.platform.scheduler.hotswap.HotswapStore;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadTransitions.Expected;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Hotswap detection and decision: a pool Unhealthy for longer than the grace period
 * under admitted workloads disrupts them; each, highest priority first, gets replacement pools
 * (free ones, or those of the fewest strictly-lower-priority workloads, taken in its ClusterQueue's preemption
 * order), committed as one decision, or is
 * requeued when none exist. Stale clusters show Unknown, never Unhealthy, so nothing is evicted on
 * stale data. Owned by the scheduling loop thread.
 */
@Component
public class HotswapDetector {

    /** The disrupted workload's fate. */
    public enum Outcome { Recovering, Failed, Requeued }

    /** What landed, for the loop to mirror in its state; empty versions mean a race was lost. */
    public record Result(Outcome outcome, Map<String, Long> newVersions, List<String> victimsEvicted,
                         HotswapEvent event) {
    }

    /** One committed hotswap, for the loop to mirror in its state before the next is decided. */
    public record Decided(WorkloadRow disrupted, SlicePlacement.Replacement replacement, List<WorkloadRow> victims,
                          Result result) {
    }

    private final NodePoolInventory inventory;
    private final DecisionCommitter committer;
    private final HotswapStore hotswaps;
    private final Clock clock;
    private final Duration grace;
    private final Duration blockedEvictions;

    public HotswapDetector(NodePoolInventory inventory, DecisionCommitter committer, HotswapStore hotswaps, Clock clock,
                           @Value("${platform.hotswap.grace:5s}") Duration grace,
                           @Value("${platform.hotswap.blocked-evictions:1m}") Duration blockedEvictions) {
        this.inventory = inventory;
        this.committer = committer;
        this.hotswaps = hotswaps;
        this.clock = clock;
        this.grace = grace;
        this.blockedEvictions = blockedEvictions;
    }

    /**
     * Decides and commits a hotswap for every workload held on a broken pool of {@code placement}; {@code mirror}
     * sees each before the next is decided. Returns whether anything was decided.
     *
     * @param rows              the loop's row of a workload by uid
     * @param flavors           node labels and tolerations per ResourceFlavor name
     * @param clusterQueues     a ClusterQueue by its name (null when it does not exist): what protects its workloads,
     *                          and how its workloads order their victims
     * @param lostWorkResources the resources whose admitted amount counts as lost work
     */
    public boolean run(long epoch, NodePoolPlacement placement, Function<String, WorkloadRow> rows,
                       FlavorInjections flavors, Function<String, ClusterQueueSpec> clusterQueues,
                       Set<String> lostWorkResources, Consumer<Decided> mirror) {
        if (!placement.active()) {
            return false;
        }
        Instant now = clock.instant();
        Victims victims = new Victims(mayBeVictim(now, rows, clusterQueues),
                disrupted -> victimOrder(disrupted, now, rows, clusterQueues, lostWorkResources));
        return hotswapBrokenPools(epoch, now, placement, rows, flavors, victims, mirror)
                | chooseAgainPastBlockedVictims(epoch, now, placement, rows, flavors, victims, mirror);
    }

    /** Who may be a victim of a hotswap, and in which order a disrupted workload takes them. */
    private record Victims(Predicate<SlicePlacement.Holder> mayBe, Function<WorkloadRow, VictimOrder> orderFor) {
    }

    /**
     * A holder may be a hotswap victim unless its ClusterQueue's minimum runtime, said to apply to hotswap too
     * ({@code platform.dev/minimum-runtime-applies-to-hotswap: "true"}), protects it still.
     */
    private static Predicate<SlicePlacement.Holder> mayBeVictim(Instant now, Function<String, WorkloadRow> rows,
                                                                Function<String, ClusterQueueSpec> clusterQueues) {
        return holder -> {
            WorkloadRow row = rows.apply(holder.workloadUid());
            if (row == null || row.admission() == null || row.admittedAt() == null) {
                return true;
            }
            ClusterQueueSpec queue = clusterQueues.apply(row.admission().clusterQueue());
            if (queue == null || !queue.victimProtection().appliesToHotswap()) {
                return true;
            }
            Instant end = queue.victimProtection().endsAt(row.admittedAt());
            return end == null || !end.isAfter(now);
        };
    }

    /**
     * The order in which {@code disrupted} takes victims of equal priority: its ClusterQueue's
     * {@code platform.dev/preemption-order}, as its preemptions in the admission cycle use it, with each holder's lost
     * work at {@code now} read from its row; Kueue's for a workload without a ClusterQueue (priority-only mode).
     */
    private static VictimOrder victimOrder(WorkloadRow disrupted, Instant now, Function<String, WorkloadRow> rows,
                                           Function<String, ClusterQueueSpec> clusterQueues, Set<String> resources) {
        ClusterQueueSpec queue = disrupted.clusterQueue() == null ? null : clusterQueues.apply(disrupted.clusterQueue());
        if (queue == null || queue.preemptionOrder() != PreemptionOrder.LeastLostWork) {
            return VictimOrder.KUEUE;
        }
        Map<String, Double> lost = new HashMap<>();
        return new VictimOrder(PreemptionOrder.LeastLostWork, holder -> lost.computeIfAbsent(holder.workloadUid(),
                uid -> lostWork(rows.apply(uid), resources, now)));
    }

    /** What a holder would lose were it preempted at {@code now}; nothing when it was not admitted. */
    private static double lostWork(WorkloadRow row, Set<String> resources, Instant now) {
        if (row == null || row.admission() == null || row.admittedAt() == null) {
            return 0;
        }
        return UnsavedWork.of(AdmittedWorkload.usageOf(CoreMapping.admission(row.admission())), resources,
                row.admittedAt(), row.lastCheckpoint()).resourceSecondsAt(now);
    }

    private boolean hotswapBrokenPools(long epoch, Instant now, NodePoolPlacement placement,
                                       Function<String, WorkloadRow> rows, FlavorInjections flavors,
                                       Victims candidates, Consumer<Decided> mirror) {
        Map<PoolKey, UnhealthyPool> broken = brokenPools(now, placement);
        if (broken.isEmpty()) {
            return false;
        }
        List<WorkloadRow> disrupted = placement.slices().holdersOf(broken.keySet()).stream()
                .map(rows).filter(r -> r != null && r.state().holdsQuota())
                .sorted(QueueOrder.of(WorkloadRow::priority,
                        r -> r.admittedAt() == null ? r.queueTimestamp() : r.admittedAt(), r -> r.uid().toString()))
                .toList();
        boolean decided = false;
        for (WorkloadRow row : disrupted) {
            Set<PoolKey> itsBroken = new TreeSet<>(placement.slices().poolsOf(row.uid().toString()));
            itsBroken.retainAll(broken.keySet());
            if (itsBroken.isEmpty()) {
                continue;
            }
            UnhealthyPool first = broken.get(itsBroken.iterator().next());
            SliceRequest request = NodePoolPlacement.request(row, flavors.nodeLabels());
            SlicePlacement.Replacement replacement = placement.slices().replace(request, itsBroken, candidates.mayBe(),
                    candidates.orderFor().apply(row)).orElse(null);
            List<WorkloadRow> victims = replacement == null ? List.of()
                    : replacement.victims().stream().map(h -> rows.apply(h.workloadUid())).toList();
            WorkloadDecision.Hotswap hotswap = decide(new WorkloadDecision.Hotswap.Disruption(first.cluster(),
                    first.pool(), first.nodes(), first.reasons(), first.since()), row, replacement, victims,
                    flavors);
            mirror.accept(new Decided(row, replacement, victims, result(hotswap,
                    committer.commit(epoch, List.of(hotswap)))));
            decided = true;
        }
        return decided;
    }

    /**
     * A hotswap whose victims' evictions have been refused (a PodDisruptionBudget answering 429) for longer than
     * {@code platform.hotswap.blocked-evictions} chooses again: the disrupted workload leaves the pools it was
     * moved to that the blocked victims' pods still occupy (as the cluster reports them) for other replacement pools among the remaining candidates
     * (the blocked victims, requeued already, are not candidates); the new hotswap event and its victims' preemption
     * audit say why, and the first event ends Superseded. With no other candidate it keeps waiting.
     */
    private boolean chooseAgainPastBlockedVictims(long epoch, Instant now, NodePoolPlacement placement,
                                                  Function<String, WorkloadRow> rows,
                                                  FlavorInjections flavors,
                                                  Victims candidates, Consumer<Decided> mirror) {
        boolean decided = false;
        for (HotswapStore.BlockedHotswap blocked : hotswaps.blockedSince(now.minus(blockedEvictions))) {
            WorkloadRow row = rows.apply(blocked.disrupted().toString());
            if (row == null || !row.state().holdsQuota() || blocked.blockedVictims().isEmpty()) {
                continue;
            }
            Set<PoolKey> occupied = new TreeSet<>(placement.slices().poolsOf(row.uid().toString()));
            occupied.retainAll(blocked.blockedPools().stream()
                    .map(pool -> new PoolKey(blocked.cluster(), pool)).toList());
            if (occupied.isEmpty()) {
                continue;
            }
            SliceRequest request = NodePoolPlacement.request(row, flavors.nodeLabels());
            SlicePlacement.Replacement replacement = placement.slices().replace(request, occupied, candidates.mayBe(),
                    candidates.orderFor().apply(row)).orElse(null);
            if (replacement == null) {
                continue;
            }
            List<WorkloadRow> victims = replacement.victims().stream().map(h -> rows.apply(h.workloadUid())).toList();
            if (victims.stream().anyMatch(v -> v == null || blocked.blockedVictims().contains(v.uid()))) {
                continue;
            }
            String choiceNote = "the eviction of " + String.join(", ", blocked.blockedNames())
                    + " refused for longer than " + blockedEvictions.toSeconds() + "s, other victims chosen";
            WorkloadDecision.Hotswap hotswap = decide(new WorkloadDecision.Hotswap.Disruption(blocked.cluster(),
                    blocked.nodePool(), blocked.nodes(), blocked.reasons(), blocked.detectedAt(), choiceNote), row,
                    replacement, victims, flavors);
            mirror.accept(new Decided(row, replacement, victims, result(hotswap,
                    committer.commit(epoch, List.of(hotswap)))));
            decided = true;
        }
        return decided;
    }

    /**
     * The hotswap of {@code disrupted}: restarted on {@code replacement}'s pools with its quota kept, its victims
     * evicted first; failed, and nobody preempted, when that restart would pass {@code failurePolicy.maxRestarts};
     * requeued at its place (Kueue's NodeFailures eviction) when no replacement exists.
     */
    static WorkloadDecision.Hotswap decide(WorkloadDecision.Hotswap.Disruption disruption, WorkloadRow disrupted,
                                           SlicePlacement.Replacement replacement, List<WorkloadRow> victims,
                                           FlavorInjections flavors) {
        String failed = "Node pool " + disruption.cluster() + "/" + disruption.pool() + " failed ("
                + disruption.reason() + ")";
        Expected atVersion = new Expected.AtVersion(disrupted.version());
        if (replacement == null) {
            return new WorkloadDecision.Hotswap(disruption, disrupted, List.of(), new WorkloadDecision.Requeue(
                    disrupted.uid(), atVersion, EvictionReason.NodeFailures,
                    failed + " and no replacement could be found", "Requeued at its original position after a node failure",
                    WorkloadDecision.AfterRelease.STOP, false));
        }
        if (disrupted.maxRestarts() != null && disrupted.restarts() + 1 > disrupted.maxRestarts()) {
            return new WorkloadDecision.Hotswap(disruption, disrupted, List.of(), new WorkloadDecision.Fail(
                    disrupted.uid(), atVersion, "MaxRestartsExceeded", "A node failure would need restart "
                    + (disrupted.restarts() + 1) + " but failurePolicy.maxRestarts is " + disrupted.maxRestarts(),
                    WorkloadDecision.AfterRelease.STOP));
        }
        String dueTo = "hotswap after node pool " + disruption.cluster() + "/" + disruption.pool() + " failed ("
                + disruption.reason() + ")";
        List<WorkloadDecision.Evict> evictions = victims.stream().map(v -> new WorkloadDecision.Evict(v.uid(),
                v.version(), EvictionReason.Preempted, PreemptionMessage.of(disrupted.uid().toString(), dueTo,
                "/" + disrupted.clusterQueue(), "/" + v.clusterQueue()),
                new WorkloadDecision.Preemption(PreemptionReason.Hotswap, PriorityOnlyPlacement.party(disrupted),
                        PriorityOnlyPlacement.party(v)))).toList();
        SlicePlacement.Placement placement = replacement.placement();
        StoredAdmission admission = disrupted.admission().onPools(NodePoolPlacement.poolNames(placement));
        String flavor = admission.podSetAssignments().stream().flatMap(a -> a.flavors().values().stream())
                .findFirst().orElse(null);
        WorkloadDecision.Placed placed = flavors.placed(placement, flavor);
        return new WorkloadDecision.Hotswap(disruption, disrupted, evictions, new WorkloadDecision.Restart(
                WorkloadDecision.Subject.of(disrupted), disrupted.version(), admission, placed, failed
                + "; restarting on " + placement.allPools().stream().map(PoolKey::toString)
                .collect(Collectors.joining(", ")) + " (restart " + (disrupted.restarts() + 1)
                + (disrupted.maxRestarts() == null ? "" : " of at most " + disrupted.maxRestarts()) + ")"));
    }

    /** The committed hotswap in the loop's terms. */
    private static Result result(WorkloadDecision.Hotswap hotswap, DecisionCommitter.Committed committed) {
        Outcome outcome = hotswap.fate() instanceof WorkloadDecision.Restart ? Outcome.Recovering
                : hotswap.fate() instanceof WorkloadDecision.Fail ? Outcome.Failed : Outcome.Requeued;
        Map<String, Long> versions = new HashMap<>();
        committed.versions().forEach((uid, version) -> versions.put(uid.toString(), version));
        List<String> evicted = hotswap.victims().stream().filter(v -> committed.landed(v.uid()))
                .map(v -> v.uid().toString()).toList();
        return new Result(outcome, versions, evicted, committed.hotswaps().get(0));
    }

    /** The pools Unhealthy past the grace period under workloads, as the database and the loop's inventory agree. */
    private Map<PoolKey, UnhealthyPool> brokenPools(Instant now, NodePoolPlacement placement) {
        if (placement.slices().holdersOf(placement.unhealthyPools()).isEmpty()) {
            return Map.of();
        }
        Map<PoolKey, UnhealthyPool> broken = new TreeMap<>();
        // Only what the loop's inventory also sees Unhealthy: a stale cluster's pools are Unknown.
        inventory.unhealthySince(now.minus(grace)).stream()
                .filter(p -> placement.slices().pool(p.key())
                        .filter(known -> known.health() == NodePool.Health.Unhealthy).isPresent())
                .forEach(p -> broken.put(p.key(), p));
        return broken;
    }
}
