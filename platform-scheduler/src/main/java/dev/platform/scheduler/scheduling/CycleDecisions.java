package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.Quantities;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.workload.WorkloadTransitions;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One core cycle's decisions in the committer's words, and what landed of them in the cycle's: admissions first
 * (with their quota rows and, when placed, their START), then the preemption victims and the drained workloads,
 * then why the others wait. Each is guarded by the version the cache holds of its row.
 */
final class CycleDecisions {

    private CycleDecisions() {
    }

    /** What landed: new versions of the rows written, and the decisions that lost a race. */
    record Outcome(Map<String, Long> newVersions, List<Decision.Admit> rejectedAdmissions,
                   List<String> rejectedEvictions, Instant at) {
    }

    /**
     * @param placements where each placed admission goes, by workload uid (none for quota-only admissions)
     * @param versions   the version of each row as the cycle read it, by workload uid
     */
    static List<WorkloadDecision> of(CycleResult result, Map<String, WorkloadDecision.Placed> placements,
                                     Map<String, Long> versions) {
        List<WorkloadDecision> decisions = new ArrayList<>();
        for (Decision.Admit a : result.admitted()) {
            Workload w = a.workload();
            WorkloadDecision.Placed placed = placements.get(w.uid());
            decisions.add(new WorkloadDecision.Admit(new WorkloadDecision.Subject(uid(w),
                    w.namespace(), w.name(), w.priorityClassName()), versions.getOrDefault(w.uid(), -1L),
                    CoreMapping.admission(a.admission(),
                            placed == null ? Map.of() : NodePoolPlacement.poolNames(placed.placement())),
                    quota(a), placed, a.admissionChecks()));
        }
        for (Decision.Preempt p : result.preempted()) {
            decisions.add(new WorkloadDecision.Evict(uid(p.workload()),
                    versions.getOrDefault(p.workload().uid(), -1L), EvictionReason.Preempted, p.message(),
                    new WorkloadDecision.Preemption(p.reason(), party(p.preemptor(), p.preemptorClusterQueue()),
                            party(p.workload(), p.victimClusterQueue()))));
        }
        for (Decision.Evict e : result.evicted()) {
            decisions.add(new WorkloadDecision.Evict(uid(e.workload()),
                    versions.getOrDefault(e.workload().uid(), -1L), e.reason(), e.message(), null));
        }
        for (Decision.Pending p : result.pending()) {
            decisions.add(new WorkloadDecision.Wait(uid(p.workload()), p.reason(), p.message(),
                    "QuotaReserved"));
        }
        return decisions;
    }

    static Outcome outcome(CycleResult result, DecisionCommitter.Committed committed) {
        Map<String, Long> newVersions = new LinkedHashMap<>();
        committed.versions().forEach((uid, version) -> newVersions.put(uid.toString(), version));
        List<Decision.Admit> rejectedAdmissions = result.admitted().stream()
                .filter(a -> !newVersions.containsKey(a.workload().uid())).toList();
        List<String> rejectedEvictions = new ArrayList<>();
        result.preempted().forEach(p -> rejectedUnlessLanded(p.workload().uid(), newVersions, rejectedEvictions));
        result.evicted().forEach(e -> rejectedUnlessLanded(e.workload().uid(), newVersions, rejectedEvictions));
        return new Outcome(newVersions, rejectedAdmissions, rejectedEvictions, committed.at());
    }

    private static void rejectedUnlessLanded(String uid, Map<String, Long> landed, List<String> rejected) {
        if (!landed.containsKey(uid)) {
            rejected.add(uid);
        }
    }

    /** The quota an admission holds, summed per flavor and resource over its pod sets. */
    private static List<WorkloadTransitions.QuotaUse> quota(Decision.Admit a) {
        Map<List<String>, Long> byFlavorResource = new LinkedHashMap<>();
        for (PodSetAssignment ps : a.admission().podSetAssignments()) {
            ps.resourceUsage().forEach((resource, milli) ->
                    byFlavorResource.merge(List.of(ps.flavors().get(resource), resource), milli, Long::sum));
        }
        return byFlavorResource.entrySet().stream().map(e -> new WorkloadTransitions.QuotaUse(e.getKey().get(0),
                e.getKey().get(1), Quantities.value(e.getValue()))).toList();
    }

    /** The core names a workload by its uid's text; the committer by the uid. */
    private static UUID uid(Workload workload) {
        return UUID.fromString(workload.uid());
    }

    private static PreemptionEvent.Party party(Workload workload, String clusterQueue) {
        return new PreemptionEvent.Party(workload.namespace(), workload.name(), uid(workload), clusterQueue,
                workload.priority());
    }
}
