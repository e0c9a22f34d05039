package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.Quantities;
import dev.platform.scheduler.core.preemption.PreemptionMessage;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.core.QueueOrder;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Priority-only mode: workloads without a queue name run as GKE runs pods without
 * Kueue. No quota; highest priority first, each waiting workload takes free healthy pools that fit
 * it or, when none are free, the pools of the fewest strictly-lower-priority holders, preempted
 * with reason {@code PriorityPreemption} as kube-scheduler would. A PriorityClass with
 * {@code preemptionPolicy: Never} waits for free pools instead. Owned by the scheduling loop thread;
 * who waits is the {@link PriorityOnlyQueue} the loop's cache keeps.
 */
final class PriorityOnlyPlacement {

    /** One admission that landed, with the victims evicted for it in the same transaction. */
    record Admitted(WorkloadRow workload, long version, List<WorkloadRow> victims, Map<String, Long> victimVersions) {
    }

    private final NodePoolPlacement placement;
    private final PriorityOnlyQueue queue;
    private final DecisionCommitter committer;
    private final Map<String, Map<String, String>> flavorLabels;
    private final Set<String> nonPreemptingClasses;

    /**
     * @param nonPreemptingClasses names of the PriorityClasses with {@code preemptionPolicy: Never},
     *                             kept current by the loop
     */
    PriorityOnlyPlacement(NodePoolPlacement placement, PriorityOnlyQueue queue, DecisionCommitter committer,
                          Map<String, Map<String, String>> flavorLabels, Set<String> nonPreemptingClasses) {
        this.placement = placement;
        this.queue = queue;
        this.committer = committer;
        this.flavorLabels = flavorLabels;
        this.nonPreemptingClasses = nonPreemptingClasses;
    }

    /**
     * Places every waiting workload that fits, highest priority first (then queue order), evicting
     * lower-priority holders where needed; records why the others wait. A turn that placed nothing
     * is not repeated until pools may have become free or somebody new waits.
     */
    List<Admitted> place(long epoch, Function<String, WorkloadRow> rows) {
        if (!placement.active() || !queue.worthTrying(placement.slices().generation())) {
            return List.of();
        }
        // A row still showing its eviction's predecessor waits for the change feed to bring it.
        List<WorkloadRow> waiting = queue.waiting().stream().map(rows)
                .filter(r -> r != null && r.state() == WorkloadState.Pending)
                .sorted(QueueOrder.of(WorkloadRow::priority, WorkloadRow::queueTimestamp, r -> r.uid().toString()))
                .toList();
        List<Admitted> admitted = new ArrayList<>();
        Map<UUID, String> waitingWhy = new HashMap<>();
        boolean raced = waiting.size() < queue.waiting().size();
        // Pools only get taken as the turn goes on (unless a victim frees more than its preemptor takes):
        // a shape that found no room at some priority finds none at a lower one. Thousands of waiting
        // workloads of a few shapes cost a few searches, not thousands.
        Map<List<SliceRequest.PodSetSlices>, Integer> noRoomEvenPreemptingFor = new HashMap<>();
        Set<List<SliceRequest.PodSetSlices>> noFreeRoom = new HashSet<>();
        for (WorkloadRow row : waiting) {
            SliceRequest request = NodePoolPlacement.request(row, new Admission(null, List.of()), flavorLabels);
            List<SliceRequest.PodSetSlices> shape = request.podSets();
            boolean mayPreempt = row.priorityClassName() == null || !nonPreemptingClasses.contains(row.priorityClassName());
            boolean hopeless = mayPreempt
                    ? noRoomEvenPreemptingFor.getOrDefault(shape, Integer.MIN_VALUE) >= row.priority()
                    : noFreeRoom.contains(shape);
            Optional<SlicePlacement.Replacement> where = hopeless ? Optional.empty() : mayPreempt
                    ? placement.slices().placeByPreempting(request)
                    : placement.place(request).map(p -> new SlicePlacement.Replacement(p, List.of()));
            if (where.isEmpty()) {
                noFreeRoom.add(shape);
                if (mayPreempt) {
                    noRoomEvenPreemptingFor.merge(shape, row.priority(), Math::max);
                }
                waitingWhy.put(row.uid(), NodePoolPlacement.waitingMessage(request) + (mayPreempt ? ""
                        : "; PriorityClass " + row.priorityClassName()
                        + " has preemptionPolicy Never, so it waits for free pools instead of preempting"));
                continue;
            }
            List<WorkloadRow> victims = where.get().victims().stream().map(h -> rows.apply(h.workloadUid())).toList();
            if (victims.contains(null)) {
                throw new IllegalStateException("a pool holder of " + row.uid() + "'s victims has no known row");
            }
            Optional<DecisionCommitter.Committed> landed =
                    committer.commitAll(epoch, admission(row, where.get().placement(), victims));
            if (landed.isEmpty()) {
                // It or a victim changed meanwhile: the change feed brings the rows as they are now.
                raced = true;
                continue;
            }
            queue.placed(row.uid().toString());
            if (!victims.isEmpty()) {
                // a victim may have held more pools than its preemptor takes: room may have grown
                noRoomEvenPreemptingFor.clear();
                noFreeRoom.clear();
            }
            victims.forEach(v -> placement.slices().release(v.uid().toString()));
            placement.slices().assign(NodePoolPlacement.holder(row), where.get().placement());
            Map<String, Long> victimVersions = new HashMap<>();
            victims.forEach(v -> victimVersions.put(v.uid().toString(), landed.get().versions().get(v.uid())));
            admitted.add(new Admitted(row, landed.get().versions().get(row.uid()), victims, victimVersions));
        }
        if (!waitingWhy.isEmpty()) {
            committer.commit(epoch, waitingWhy.entrySet().stream().map(e -> new WorkloadDecision.Wait(e.getKey(),
                    PendingReason.WaitingForNodePool, e.getValue(), "Admitted")).toList());
        }
        if (admitted.isEmpty() && !raced) {
            queue.fruitless(placement.slices().generation());
        }
        return admitted;
    }

    /**
     * {@code row} admitted without quota onto {@code placement} and started there, after its {@code victims}
     * (lower-priority holders of those pools) are evicted with reason {@code PriorityPreemption}: all or nothing.
     */
    static List<WorkloadDecision> admission(WorkloadRow row, SlicePlacement.Placement placement,
                                            List<WorkloadRow> victims) {
        List<WorkloadDecision> decisions = new ArrayList<>();
        for (WorkloadRow v : victims) {
            decisions.add(new WorkloadDecision.Evict(v.uid(), v.version(), EvictionReason.Preempted,
                    PreemptionMessage.of(row.uid().toString(), "prioritization in priority-only mode (no queue name)",
                            queuePath(row.clusterQueue()), queuePath(v.clusterQueue())),
                    new WorkloadDecision.Preemption(PreemptionReason.PriorityPreemption, party(row), party(v))));
        }
        Map<String, List<String>> pools = NodePoolPlacement.poolNames(placement);
        StoredAdmission admission = new StoredAdmission(null, row.podSets().stream()
                .map(ps -> {
                    Map<String, String> usage = new TreeMap<>();
                    ps.requests().forEach((resource, q) -> usage.put(resource,
                            Quantities.format(q.milliValue() * ps.count())));
                    return new StoredAdmission.PodSetAssignment(ps.name(), ps.count(), Map.of(), usage,
                            pools.getOrDefault(ps.name(), List.of()));
                }).toList());
        decisions.add(new WorkloadDecision.AdmitByPriority(WorkloadDecision.Subject.of(row), row.version(), admission,
                new WorkloadDecision.Placed(placement, null, Map.of()), "No queue name: placed by priority on "
                + placement.allPools().stream().map(PoolKey::toString).collect(Collectors.joining(", "))
                + (victims.isEmpty() ? "" : " after preempting "
                + victims.stream().map(v -> v.namespace() + "/" + v.name()).collect(Collectors.joining(", ")))));
        return decisions;
    }

    private static String queuePath(String clusterQueue) {
        return clusterQueue == null ? "(no queue)" : "/" + clusterQueue;
    }

    static PreemptionEvent.Party party(WorkloadRow row) {
        return new PreemptionEvent.Party(row.namespace(), row.name(), row.uid(), row.clusterQueue(),
                row.priority());
    }
}
