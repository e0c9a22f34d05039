package dev.platform.scheduler.scheduling;

import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandType;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.cluster.Evictions;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.Quantities;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.leadership.EpochFence;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.interceptor.TransactionAspectSupport;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * Commits one cycle's decisions in one transaction: workload states, admissions,
 * quota rows, conditions, preemption events. Fenced by the leader epoch; every workload update is
 * guarded by its version, and the ones that lost a race are reported back so the loop can undo
 * them in its state.
 */
@Component
class DecisionWriter {

    private final WorkloadStore workloads;
    private final WorkloadTransitions transitions;
    private final PreemptionStore preemptions;
    private final JsonMapper json;
    private final Clock clock;
    private final AgentCommandStore commands;
    private final EpochFence fence;
    private final Evictions evictions;

    DecisionWriter(WorkloadStore workloads, WorkloadTransitions transitions, PreemptionStore preemptions, JsonMapper json,
                   Clock clock, AgentCommandStore commands, EpochFence fence, Evictions evictions) {
        this.evictions = evictions;
        this.commands = commands;
        this.fence = fence;
        this.workloads = workloads;
        this.transitions = transitions;
        this.preemptions = preemptions;
        this.json = json;
        this.clock = clock;
    }

    /** Where an admitted workload goes: its pools and the flavor whose node labels its pods get. */
    record Placed(SlicePlacement.Placement placement, String flavor, Map<String, String> nodeLabels) {
    }

    /** What landed: new versions of the rows written, and the decisions that lost a race. */
    record Outcome(Map<String, Long> newVersions, List<Decision.Admit> rejectedAdmissions,
                   List<String> rejectedEvictions, Instant at) {
    }

    @Transactional
    public Outcome commit(CycleResult result, Map<String, Placed> placements, long epoch,
                          Map<String, Long> versions) {
        fence.check(epoch);
        transitions.lockChanges();
        Instant now = clock.instant();
        Map<String, Long> newVersions = new HashMap<>();

        List<Decision.Admit> rejected = admit(result.admitted(), placements, versions, now, epoch, newVersions);
        List<String> rejectedEvictions = new ArrayList<>();
        evict(result.preempted().stream().map(p -> eviction(p.workload(), versions, EvictionReason.Preempted,
                p.message(), p.reason())).toList(), now, newVersions, rejectedEvictions);
        evict(result.evicted().stream().map(e -> eviction(e.workload(), versions, e.reason(), e.message(), null))
                .toList(), now, newVersions, rejectedEvictions);
        preemptions.append(result.preempted().stream()
                .filter(p -> !rejectedEvictions.contains(p.workload().uid()))
                .map(p -> new PreemptionEvent(0, now, p.reason().name(), p.message(),
                        party(p.preemptor(), p.preemptorClusterQueue()), party(p.workload(), p.victimClusterQueue())))
                .toList(), epoch);
        transitions.recordPending(result.pending().stream().map(p -> new WorkloadTransitions.PendingNote(
                UUID.fromString(p.workload().uid()), p.reason(), p.message())).toList(), "QuotaReserved", now);
        return new Outcome(newVersions, rejected, rejectedEvictions, now);
    }

    private static WorkloadTransitions.Eviction eviction(Workload workload, Map<String, Long> versions,
                                                         EvictionReason reason, String message,
                                                         PreemptionReason preemptionReason) {
        return new WorkloadTransitions.Eviction(UUID.fromString(workload.uid()), versions.getOrDefault(workload.uid(), -1L),
                reason, message, preemptionReason);
    }

    private List<Decision.Admit> admit(List<Decision.Admit> admits, Map<String, Placed> placements,
                                       Map<String, Long> versions, Instant now, long epoch,
                                       Map<String, Long> newVersions) {
        if (admits.isEmpty()) {
            return List.of();
        }
        List<WorkloadTransitions.Admitting> admitting = new ArrayList<>();
        for (Decision.Admit a : admits) {
            Placed placed = placements.get(a.workload().uid());
            admitting.add(new WorkloadTransitions.Admitting(UUID.fromString(a.workload().uid()),
                    versions.getOrDefault(a.workload().uid(), -1L), a.admission().clusterQueue(),
                    json.writeValueAsString(CoreMapping.admission(a.admission(),
                            placed == null ? Map.of() : NodePoolPlacement.poolNames(placed.placement()))),
                    placed == null ? null : placed.placement().cluster(), quota(a)));
        }
        Map<UUID, Long> landed = transitions.admit(admitting, now, epoch);
        landed.forEach((uid, version) -> newVersions.put(uid.toString(), version));
        startInClusters(admits.stream()
                .filter(a -> landed.containsKey(UUID.fromString(a.workload().uid())))
                .filter(a -> placements.containsKey(a.workload().uid()))
                .map(a -> new Starting(UUID.fromString(a.workload().uid()), a.workload().namespace(),
                        a.workload().name(), a.workload().priorityClassName(), placements.get(a.workload().uid())))
                .toList());
        return admits.stream().filter(a -> !landed.containsKey(UUID.fromString(a.workload().uid()))).toList();
    }

    /** The quota an admission holds, summed per flavor and resource over its pod sets. */
    private static List<WorkloadTransitions.QuotaUse> quota(Decision.Admit a) {
        Map<List<String>, Long> byFlavorResource = new java.util.LinkedHashMap<>();
        for (PodSetAssignment ps : a.admission().podSetAssignments()) {
            ps.resourceUsage().forEach((resource, milli) ->
                    byFlavorResource.merge(List.of(ps.flavors().get(resource), resource), milli, Long::sum));
        }
        return byFlavorResource.entrySet().stream().map(e -> new WorkloadTransitions.QuotaUse(e.getKey().get(0),
                e.getKey().get(1), Quantities.value(e.getValue()))).toList();
    }

    /** A workload admitted onto node pools, to be started there. */
    private record Starting(UUID uid, String namespace, String name, String priorityClassName, Placed placed) {

        static Starting of(WorkloadRow row, Placed placed) {
            return new Starting(row.uid(), row.namespace(), row.name(), row.priorityClassName(), placed);
        }
    }

    /** START commands for admissions placed in a cluster, in the decision's transaction (outbox). */
    private void startInClusters(List<Starting> starting) {
        if (starting.isEmpty()) {
            return;
        }
        Map<UUID, String> clusters = new HashMap<>();
        starting.forEach(s -> clusters.put(s.uid(), s.placed().placement().cluster()));
        commands.deleteElsewhere(clusters);
        Map<UUID, String> manifests = workloads.manifests(clusters.keySet());
        commands.enqueueStarts(starting.stream().map(s -> {
            Placed placed = s.placed();
            return new AgentCommandStore.NewStart(placed.placement().cluster(), s.uid(), s.namespace(), s.name(),
                    new CommandPayload(json.readTree(manifests.get(s.uid())), s.priorityClassName(),
                            placed.placement().allPools().stream().map(PoolKey::pool).toList(),
                            placed.nodeLabels(), placed.flavor()));
        }).toList());
    }

    /**
     * Places a workload admitted while no cluster was connected (quota-only) once one is: its
     * admission gains node pools and a START command goes to the agent. Returns the new version,
     * or null when the workload changed meanwhile.
     */
    @Transactional
    public Long placeAdmitted(long epoch, WorkloadRow row, Placed placed) {
        fence.check(epoch);
        transitions.lockChanges();
        Map<String, List<String>> pools = NodePoolPlacement.poolNames(placed.placement());
        StoredAdmission admission = new StoredAdmission(row.admission().clusterQueue(),
                row.admission().podSetAssignments().stream().map(a -> new StoredAdmission.PodSetAssignment(a.name(),
                        a.count(), a.flavors(), a.resourceUsage(), pools.getOrDefault(a.name(), List.of()))).toList());
        Long version = transitions.place(row.uid(), row.version(), json.writeValueAsString(admission),
                placed.placement().cluster()).orElse(null);
        if (version != null) {
            startInClusters(List.of(Starting.of(row, placed)));
        }
        return version;
    }

    /** A priority-only admission that landed, with the new versions of the victims evicted for it. */
    record PriorityOnlyAdmission(long version, Map<String, Long> victimVersions) {
    }

    /**
     * Admits a priority-only workload (no queue, no quota) onto the pools found for it and starts
     * it, evicting {@code victims} (lower-priority holders of those pools, reason
     * {@code PriorityPreemption}) in the same transaction. Empty, with nothing written, when the
     * workload or a victim changed meanwhile.
     */
    @Transactional
    public Optional<PriorityOnlyAdmission> admitPriorityOnly(long epoch, WorkloadRow row,
                                                             SlicePlacement.Placement placement,
                                                             List<WorkloadRow> victims) {
        fence.check(epoch);
        transitions.lockChanges();
        Instant now = clock.instant();
        String message = "Preempted to accommodate a workload (UID: " + row.uid() + ") due to prioritization in "
                + "priority-only mode (no queue name); preemptor path: " + queuePath(row.clusterQueue());
        Map<String, Long> evicted = evictions.evict(victims.stream().map(v -> new WorkloadTransitions.Eviction(v.uid(),
                v.version(), EvictionReason.Preempted, message + "; preemptee path: " + queuePath(v.clusterQueue()),
                PreemptionReason.PriorityPreemption)).toList(), now);
        if (evicted.size() < victims.size()) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return Optional.empty();
        }
        Map<String, List<String>> pools = NodePoolPlacement.poolNames(placement);
        StoredAdmission admission = new StoredAdmission(null, row.podSets().stream()
                .map(ps -> {
                    Map<String, String> usage = new java.util.TreeMap<>();
                    ps.requests().forEach((resource, q) -> usage.put(resource,
                            Quantities.format(q.milliValue() * ps.count())));
                    return new StoredAdmission.PodSetAssignment(ps.name(), ps.count(), Map.of(), usage,
                            pools.getOrDefault(ps.name(), List.of()));
                }).toList());
        Long version = transitions.admitWithoutQuota(row.uid(), row.version(), json.writeValueAsString(admission),
                placement.cluster(), now, epoch, "No queue name: placed by priority on "
                        + placement.allPools().stream().map(PoolKey::toString).collect(Collectors.joining(", "))
                        + (victims.isEmpty() ? "" : " after preempting "
                        + victims.stream().map(v -> v.namespace() + "/" + v.name())
                        .collect(Collectors.joining(", "))))
                .orElse(null);
        if (version == null) {
            TransactionAspectSupport.currentTransactionStatus().setRollbackOnly();
            return Optional.empty();
        }
        preemptions.append(victims.stream().map(v -> new PreemptionEvent(0, now, PreemptionReason.PriorityPreemption.name(),
                message + "; preemptee path: " + queuePath(v.clusterQueue()), party(row), party(v))).toList(), epoch);
        startInClusters(List.of(Starting.of(row, new Placed(placement, null, Map.of()))));
        return Optional.of(new PriorityOnlyAdmission(version, evicted));
    }

    /**
     * Records why priority-only workloads wait, in one statement; a condition is appended only for
     * those whose message changed.
     */
    @Transactional
    public void waitingPriorityOnly(Map<UUID, String> messages) {
        transitions.recordPending(messages.entrySet().stream().map(e -> new WorkloadTransitions.PendingNote(e.getKey(),
                PendingReason.WaitingForNodePool, e.getValue())).toList(), "Admitted", clock.instant());
    }

    private static String queuePath(String clusterQueue) {
        return clusterQueue == null ? "(no queue)" : "/" + clusterQueue;
    }

    private static PreemptionEvent.Party party(WorkloadRow row) {
        return new PreemptionEvent.Party(row.namespace(), row.name(), row.uid().toString(), row.clusterQueue(),
                row.priority());
    }

    /** Evicts in one statement; what lost a race (changed meanwhile) is added to {@code rejected}. */
    private void evict(List<WorkloadTransitions.Eviction> evictions, Instant now, Map<String, Long> newVersions,
                       List<String> rejected) {
        Map<String, Long> landed = this.evictions.evict(evictions, now);
        newVersions.putAll(landed);
        evictions.stream().map(e -> e.uid().toString()).filter(uid -> !landed.containsKey(uid)).forEach(rejected::add);
    }

    private static PreemptionEvent.Party party(Workload workload, String clusterQueue) {
        return new PreemptionEvent.Party(workload.namespace(), workload.name(), workload.uid(), clusterQueue,
                workload.priority());
    }

}
