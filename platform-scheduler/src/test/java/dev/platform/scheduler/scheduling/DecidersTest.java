package dev.platform.scheduler.scheduling;

import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.RequeuingTimestamp;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The deciders above the core return decisions as values; these are what they decide, without a database. */
class DecidersTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
    private static final WorkloadDecision.Hotswap.Disruption DISRUPTION = new WorkloadDecision.Hotswap.Disruption(
            "c1", "a", List.of("node-1"), List.of(NodeHealthReason.NOT_READY), NOW);
    private static final FlavorInjections NO_FLAVORS = new FlavorInjections(Map.of(), Map.of());
    private static final SlicePlacement.Placement ON_B = new SlicePlacement.Placement("c1",
            Map.of("workers", List.of(new PoolKey("c1", "b"))));

    @Test
    void aHotswapWithReplacementPoolsEvictsItsVictimsForTheHotswapAndRestartsOnTheNewPoolsWithTheFlavorsLabels() {
        ResourceFlavorManifest.Toleration tpu = new ResourceFlavorManifest.Toleration("google.com/tpu", "Exists", null,
                "NoSchedule", null);
        WorkloadRow disrupted = admitted("train", 10, 0, null);
        WorkloadRow victim = admitted("batch", 0, 0, null);

        WorkloadDecision.Hotswap hotswap = HotswapDetector.decide(DISRUPTION, disrupted,
                new SlicePlacement.Replacement(ON_B, List.of()), List.of(victim),
                new FlavorInjections(Map.of("v5e", Map.of("cloud.google.com/gke-tpu-accelerator", "tpu-v5-lite-podslice")),
                        Map.of("v5e", List.of(tpu))));

        assertThat(hotswap.victims()).singleElement().satisfies(e -> {
            assertThat(e.uid()).isEqualTo(victim.uid());
            assertThat(e.reason()).isEqualTo(EvictionReason.Preempted);
            assertThat(e.preemption().reason()).isEqualTo(PreemptionReason.Hotswap);
            assertThat(e.message()).isEqualTo("Preempted to accommodate a workload (UID: " + disrupted.uid()
                    + ") due to hotswap after node pool c1/a failed (NOT_READY); preemptor path: /cq; preemptee"
                    + " path: /cq");
        });
        WorkloadDecision.Restart restart = (WorkloadDecision.Restart) hotswap.fate();
        assertThat(restart.expectedVersion()).isEqualTo(disrupted.version());
        assertThat(restart.admission().podSetAssignments()).singleElement()
                .satisfies(a -> assertThat(a.nodePools()).containsExactly("b"));
        assertThat(restart.placed().flavor()).isEqualTo("v5e");
        assertThat(restart.placed().nodeLabels()).containsKey("cloud.google.com/gke-tpu-accelerator");
        assertThat(restart.placed().tolerations()).containsExactly(tpu);
        assertThat(restart.message()).endsWith("restarting on c1/b (restart 1)");
    }

    @Test
    void aHotswapPastMaxRestartsFailsTheWorkloadAndPreemptsNobody() {
        WorkloadRow disrupted = admitted("train", 10, 2, 2);

        WorkloadDecision.Hotswap hotswap = HotswapDetector.decide(DISRUPTION, disrupted,
                new SlicePlacement.Replacement(ON_B, List.of()), List.of(admitted("batch", 0, 0, null)), NO_FLAVORS);

        assertThat(hotswap.victims()).isEmpty();
        assertThat(hotswap.fate()).isInstanceOfSatisfying(WorkloadDecision.Fail.class, f -> {
            assertThat(f.reason()).isEqualTo("MaxRestartsExceeded");
            assertThat(f.then()).isEqualTo(WorkloadDecision.AfterRelease.STOP);
        });
    }

    @Test
    void aHotswapWithoutReplacementRequeuesForNodeFailures() {
        WorkloadDecision.Hotswap hotswap = HotswapDetector.decide(DISRUPTION, admitted("train", 10, 0, null), null,
                List.of(), NO_FLAVORS);

        assertThat(hotswap.fate()).isInstanceOfSatisfying(WorkloadDecision.Requeue.class, r -> {
            assertThat(r.reason()).isEqualTo(EvictionReason.NodeFailures);
            assertThat(r.message()).isEqualTo("Node pool c1/a failed (NOT_READY) and no replacement could be found");
            assertThat(r.endsHotswap()).isFalse();
        });
    }

    @Test
    void aPriorityOnlyAdmissionEvictsItsVictimsBeforeItIsAdmittedWithoutQuota() {
        WorkloadRow row = pendingWithoutQueue("adhoc", 10);
        WorkloadRow victim = admitted("batch", 0, 0, null);

        List<WorkloadDecision> decisions = PriorityOnlyPlacement.admission(row, ON_B, List.of(victim));

        assertThat(decisions).hasSize(2);
        assertThat(decisions.get(0)).isInstanceOfSatisfying(WorkloadDecision.Evict.class, e -> {
            assertThat(e.preemption().reason()).isEqualTo(PreemptionReason.PriorityPreemption);
            assertThat(e.message()).endsWith("due to prioritization in priority-only mode (no queue name); "
                    + "preemptor path: (no queue); preemptee path: /cq");
        });
        assertThat(decisions.get(1)).isInstanceOfSatisfying(WorkloadDecision.AdmitByPriority.class, a -> {
            assertThat(a.admission().clusterQueue()).isNull();
            assertThat(a.admission().podSetAssignments()).singleElement().satisfies(ps -> {
                assertThat(ps.resourceUsage()).containsEntry("google.com/tpu", "4");
                assertThat(ps.nodePools()).containsExactly("b");
            });
            assertThat(a.message()).isEqualTo("No queue name: placed by priority on c1/b after preempting team/batch");
        });
    }

    @Test
    void aStartRefusedForGoodFailsTheWorkloadAndDeletesItsJobSetAndAFailedRestartRequeuesIt() {
        UUID uid = UUID.randomUUID();
        AgentCommandCompleted start = new AgentCommandCompleted("c1", 7, CommandType.START, uid, CommandStatus.FAILED,
                "namespace not found", NOW, false);
        AgentCommandCompleted restart = new AgentCommandCompleted("c1", 8, CommandType.RESTART, uid,
                CommandStatus.FAILED, "pods would not go", NOW, false);

        WorkloadDecision failed = FailedStarts.decide(start);
        WorkloadDecision requeued = FailedStarts.decide(restart);

        assertThat(failed).isInstanceOfSatisfying(WorkloadDecision.Fail.class, f -> {
            assertThat(f.expected()).isEqualTo(new WorkloadTransitions.Expected.LatestCommand("c1", 7));
            assertThat(f.reason()).isEqualTo("StartFailed");
            assertThat(f.then()).isEqualTo(WorkloadDecision.AfterRelease.DELETE);
        });
        assertThat(requeued).isInstanceOfSatisfying(WorkloadDecision.Requeue.class, r -> {
            assertThat(r.reason()).isEqualTo(EvictionReason.NodeFailures);
            assertThat(r.then()).isEqualTo(WorkloadDecision.AfterRelease.NOTHING);
            assertThat(r.endsHotswap()).isTrue();
        });
    }

    @Test
    void aLifecycleTimerEvictsTheWorkloadAtTheVersionTheCacheHoldsAndQueuesItAsItsRequeuingStrategySays() {
        WorkloadRow row = admitted("long-run", 0, 0, null);
        LifecycleDecision.Deactivate limit = new LifecycleDecision.Deactivate(row.uid().toString(),
                DeactivationReason.MaximumExecutionTimeExceeded, "ran past its limit");
        WorkloadTransitions.Expected atVersion = new WorkloadTransitions.Expected.AtVersion(row.version());

        WorkloadDecision.Lifecycle atEviction = LifecycleEvictions.decision(limit, row, atVersion,
                RequeuingTimestamp.Eviction);
        WorkloadDecision.Lifecycle atCreation = LifecycleEvictions.decision(limit, row, atVersion,
                RequeuingTimestamp.Creation);

        assertThat(atEviction.uid()).isEqualTo(row.uid());
        assertThat(atEviction.expected()).isEqualTo(atVersion);
        assertThat(atEviction.decision()).isEqualTo(limit);
        assertThat(atEviction.queueAtEviction()).isTrue();
        assertThat(atCreation.queueAtEviction()).isFalse();
    }

    @Test
    void aCyclesDecisionsAreAdmissionsThenEvictionsThenWhyTheOthersWaitEachAtTheVersionTheCacheHolds() {
        Workload high = new Workload(UUID.randomUUID().toString(), "team", "high", "lq", 10, NOW, List.of(), "high", null);
        Workload low = new Workload(UUID.randomUUID().toString(), "team", "low", "lq", 0, NOW, List.of());
        Workload waiting = new Workload(UUID.randomUUID().toString(), "team", "waiting", "lq", 0, NOW, List.of());
        Admission admission = new Admission("cq", List.of(new PodSetAssignment("workers", 1,
                Map.of("google.com/tpu", "v5e"), Map.of("google.com/tpu", 4_000L))));
        CycleResult cycle = new CycleResult(List.of(new Decision.Admit(high, admission)),
                List.of(new Decision.Preempt(low, "cq", high, "cq", PreemptionReason.InClusterQueue, "preempted")),
                List.of(new Decision.Pending(waiting, PendingReason.WaitingForQuota, "no room", false)), List.of());

        List<WorkloadDecision> decisions = CycleDecisions.of(cycle, Map.of(),
                Map.of(high.uid(), 3L, low.uid(), 5L));

        assertThat(decisions).extracting(d -> d.getClass().getSimpleName()).containsExactly("Admit", "Evict", "Wait");
        assertThat(decisions.get(0)).isInstanceOfSatisfying(WorkloadDecision.Admit.class, a -> {
            assertThat(a.expectedVersion()).isEqualTo(3L);
            assertThat(a.placed()).isNull();
            assertThat(a.quota()).singleElement().satisfies(q -> {
                assertThat(q.flavor()).isEqualTo("v5e");
                assertThat(q.amount()).isEqualByComparingTo("4");
            });
        });
        assertThat(decisions.get(1)).isInstanceOfSatisfying(WorkloadDecision.Evict.class, e -> {
            assertThat(e.expectedVersion()).isEqualTo(5L);
            assertThat(e.preemption().preemptor().name()).isEqualTo("high");
        });
        assertThat(decisions.get(2)).isInstanceOfSatisfying(WorkloadDecision.Wait.class,
                w -> assertThat(w.condition()).isEqualTo("QuotaReserved"));
    }

    private static WorkloadRow admitted(String name, int priority, int restarts, Integer maxRestarts) {
        StoredAdmission admission = new StoredAdmission("cq", List.of(new StoredAdmission.PodSetAssignment("workers",
                1, Map.of("google.com/tpu", "v5e"), Map.of("google.com/tpu", "4"), List.of("a"))));
        return row(name, "cq", priority, WorkloadState.Running, admission, restarts, maxRestarts);
    }

    private static WorkloadRow pendingWithoutQueue(String name, int priority) {
        return row(name, null, priority, WorkloadState.Pending, null, 0, null);
    }

    private static WorkloadRow row(String name, String clusterQueue, int priority, WorkloadState state,
                                   StoredAdmission admission, int restarts, Integer maxRestarts) {
        PodSetSpec podSet = new PodSetSpec("workers", 1, null, Map.of("google.com/tpu", Quantity.parse("4")), Map.of(),
                List.of(), List.of(), 1, 1);
        return new WorkloadRow(UUID.nameUUIDFromBytes(name.getBytes()), "team", name, "JobSet",
                clusterQueue == null ? null : "lq", clusterQueue, null, priority, state, List.of(podSet), admission,
                null, null, NOW, NOW, admission == null ? null : NOW, null, restarts, 4, 9, null,
                admission == null ? null : "c1", maxRestarts, null);
    }
}
