package dev.platform.scheduler.core;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

/** The incremental entry points the adapter drives between cycles. */
class SchedulerStateTest {

    private final FakeClock clock = new FakeClock(CoreFixtures.T0);
    private SchedulerState state;

    @BeforeEach
    void standaloneQueueWithFourCpu() {
        state = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("default"));
        state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "4")
                .preemption(new PreemptionPolicy(WithinClusterQueuePolicy.LowerPriority, null, null, null)).build());
    }

    @Test
    void aWorkloadWaitsForItsLocalQueueAndIsAdmittedOnceItExists() {
        state.addPending(workload("early").queue("lq").request("cpu", "1").build());

        CycleResult before = state.runCycle();
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        CycleResult after = state.runCycle();

        assertThat(before.pending()).extracting(Decision.Pending::reason).containsExactly(PendingReason.LocalQueueNotFound);
        assertThat(after.admitted()).extracting(a -> a.workload().name()).containsExactly("early");
        assertThat(state.usage("cq")).containsValue(1_000L);
    }

    @Test
    void aCompletedEvictionFreesQuotaAndRequeuesTheVictimAtTheTimeOfEviction() {
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        state.addPending(workload("low").request("cpu", "4").build());
        state.runCycle();
        state.addPending(workload("high").priority(5).request("cpu", "4").build());

        CycleResult preempting = state.runCycle();
        clock.advance(Duration.ofMinutes(5));
        state.evictionCompleted("low");
        CycleResult admitting = state.runCycle();

        assertThat(preempting.preempted()).extracting(p -> p.workload().name()).containsExactly("low");
        assertThat(state.admitted("low")).isEmpty();
        assertThat(admitting.admitted()).extracting(a -> a.workload().name()).containsExactly("high");
        assertThat(state.pendingInOrder("cq")).extracting(Workload::name, Workload::queuedAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("low", clock.instant()));
    }

    @Test
    void pendingDecisionsAreReportedOnlyWhenTheyChange() {
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        state.addPending(workload("huge").request("cpu", "8").build());

        CycleResult first = state.runCycle();
        state.requeueInadmissible();
        CycleResult second = state.runCycle();

        assertThat(first.pending()).extracting(Decision.Pending::reason).containsExactly(PendingReason.ExceedsMaxQuota);
        assertThat(second.isEmpty()).isTrue();
        assertThat(state.pendingInOrder("cq")).extracting(Workload::name).containsExactly("huge");
    }
}
