package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorFungibility;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.LabelSelector;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The benchmark shape: ClusterQueues in cohorts of ten, two flavors (on-demand, spot) of cpu, admitted
 * workloads filling most of each queue's on-demand quota and a backlog of pending workloads.
 */
final class ScaleWorld {

    static final int QUEUES = 1_000;
    static final int QUEUES_PER_COHORT = 10;
    static final int ADMITTED_PER_QUEUE = 50;
    static final int PENDING_PER_QUEUE = 100;

    private ScaleWorld() {
    }

    static ClusterQueueSpec clusterQueue(String name, String cohort, long onDemand, long spot) {
        List<FlavorQuotas> flavors = List.of(
                new FlavorQuotas("on-demand", List.of(ResourceQuota.of("cpu", onDemand))),
                new FlavorQuotas("spot", List.of(ResourceQuota.of("cpu", spot))));
        return new ClusterQueueSpec(name, cohort, List.of(new ResourceGroup(List.of("cpu"), flavors)),
                QueueingStrategy.BestEffortFIFO, LabelSelector.EVERYTHING, FlavorFungibility.DEFAULT,
                new PreemptionPolicy(WithinClusterQueuePolicy.LowerPriority, ReclaimWithinCohortPolicy.LowerPriority,
                        BorrowWithinCohortPolicy.Never, null),
                1.0, StopPolicy.None);
    }

    static Workload workload(String uid, String queue, int priority, Instant queuedAt, long cpuMilli) {
        return new Workload(uid, "default", uid, queue, priority, queuedAt,
                List.of(new PodSet("main", 1, 1, Map.of("cpu", cpuMilli), Map.of(), List.of(), List.of())));
    }

    static Admission admission(String clusterQueue, String flavor, long cpuMilli) {
        return new Admission(clusterQueue, List.of(new PodSetAssignment("main", 1, Map.of("cpu", flavor), Map.of("cpu", cpuMilli))));
    }

    /**
     * 1,000 ClusterQueues in 100 cohorts; each has on-demand 60 and spot 20 cpu, 50 admitted 1-cpu workloads on
     * on-demand and 100 pending 1-cpu workloads: a cycle admits 30,000 (on-demand, spot, and borrowing within
     * each cohort) and finds the other 70,000 inadmissible (equal or lower priority than what runs, so no victims).
     */
    static SchedulerState admissionCycleWorld(FakeClock clock, boolean fairSharing) {
        SchedulerState state = new SchedulerState(clock, fairSharing ? SchedulerSettings.FAIR_SHARING : SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("on-demand"));
        state.applyResourceFlavor(CoreFixtures.flavor("spot"));
        Instant t = clock.instant();
        for (int q = 0; q < QUEUES; q++) {
            String cq = "cq-" + q;
            state.applyClusterQueue(clusterQueue(cq, "cohort-" + (q / QUEUES_PER_COHORT), 60_000, 20_000));
            state.applyLocalQueue(new LocalQueueSpec("default", "lq-" + q, cq, StopPolicy.None));
            for (int i = 0; i < ADMITTED_PER_QUEUE; i++) {
                Workload w = workload(cq + "-a" + i, "lq-" + q, 1, t.minusSeconds(10_000 - i), 1_000);
                state.addAdmitted(w, admission(cq, "on-demand", 1_000), t.minusSeconds(5_000 - i));
            }
            for (int i = 0; i < PENDING_PER_QUEUE; i++) {
                state.addPending(workload(cq + "-p" + i, "lq-" + q, i % 2, t.plusSeconds(i), 1_000));
            }
        }
        return state;
    }
}
