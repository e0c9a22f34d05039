package dev.platform.scheduler.core;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.core.model.LabelRequirement;
import dev.platform.scheduler.core.model.LabelSelector;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

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

        CycleResult before = AdmissionCycle.run(state);
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        CycleResult after = AdmissionCycle.run(state);

        assertThat(before.pending()).extracting(Decision.Pending::reason).containsExactly(PendingReason.LocalQueueNotFound);
        assertThat(after.admitted()).extracting(a -> a.workload().name()).containsExactly("early");
        assertThat(state.admittedRegistry().usage("cq")).containsValue(1_000L);
    }

    @Test
    void aCompletedEvictionFreesQuotaAndRequeuesTheVictimAtTheTimeOfEviction() {
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        state.addPending(workload("low").request("cpu", "4").build());
        AdmissionCycle.run(state);
        state.addPending(workload("high").priority(5).request("cpu", "4").build());

        CycleResult preempting = AdmissionCycle.run(state);
        clock.advance(Duration.ofMinutes(5));
        state.evictionCompleted("low");
        CycleResult admitting = AdmissionCycle.run(state);

        assertThat(preempting.preempted()).extracting(p -> p.workload().name()).containsExactly("low");
        assertThat(state.admittedRegistry().find("low")).isEmpty();
        assertThat(admitting.admitted()).extracting(a -> a.workload().name()).containsExactly("high");
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name, Workload::queuedAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("low", clock.instant()));
    }

    @Test
    void aCheckpointWrittenWhileAdmittedMakesTheOlderWorkloadTheVictimUnderLeastLostWork() {
        state.applyClusterQueue(clusterQueue("cq").quota("default", "google.com/tpu", "8")
                .preemption(new PreemptionPolicy(WithinClusterQueuePolicy.LowerPriority, null, null, null))
                .preemptionOrder(PreemptionOrder.LeastLostWork).build());
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        state.addPending(workload("older").request("google.com/tpu", "4").build());
        AdmissionCycle.run(state);
        clock.advance(Duration.ofMinutes(30));
        state.addPending(workload("newer").request("google.com/tpu", "4").build());
        AdmissionCycle.run(state);
        clock.advance(Duration.ofMinutes(10));
        state.addPending(workload("urgent").priority(5).request("google.com/tpu", "4").build());
        SchedulerState withoutCheckpoint = state.copyOf(List.of("cq"), clock);

        state.checkpointed("older", clock.instant().minus(Duration.ofMinutes(1)));

        assertThat(AdmissionCycle.run(withoutCheckpoint).preempted()).as("40 min unsaved against 10: the newer goes")
                .extracting(p -> p.workload().name()).containsExactly("newer");
        assertThat(AdmissionCycle.run(state).preempted()).as("1 min unsaved against 10: the older goes")
                .extracting(p -> p.workload().name()).containsExactly("older");
    }

    @Test
    void aWorkloadStoppedWhileBackingOffStaysOutUntilResumedThenJoinsAtOnce() {
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        Workload held = workload("held").request("cpu", "1").build();
        state.addPending(held, clock.instant().plus(Duration.ofMinutes(10)));
        state.deactivate("held");
        state.changePriority("held", 7);

        clock.advance(Duration.ofMinutes(11));
        CycleResult whileStopped = AdmissionCycle.run(state);
        state.activate("held");
        CycleResult resumed = AdmissionCycle.run(state);

        assertThat(whileStopped.admitted()).isEmpty();
        assertThat(resumed.admitted()).extracting(a -> a.workload().name(), a -> a.workload().priority())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("held", 7));
        assertThat(state.workloadCount()).isEqualTo(1);
    }

    @Test
    void pendingDecisionsAreReportedOnlyWhenTheyChange() {
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        state.addPending(workload("huge").request("cpu", "8").build());

        CycleResult first = AdmissionCycle.run(state);
        state.requeueInadmissible();
        CycleResult second = AdmissionCycle.run(state);

        assertThat(first.pending()).extracting(Decision.Pending::reason).containsExactly(PendingReason.ExceedsMaxQuota);
        assertThat(second.isEmpty()).isTrue();
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("huge");
    }

    // ---- namespace labels (Kueue's cqNamespaceHandler)

    @Test
    void aWorkloadParkedForItsNamespaceIsAdmittedOnceItsLabelsMatchWithoutResubmission() {
        selectingQueue(new LabelSelector(Map.of("team", "ml"), List.of()));
        state.addPending(workload("train").namespace("research").request("cpu", "1").build());

        CycleResult unselected = AdmissionCycle.run(state);
        CycleResult parked = AdmissionCycle.run(state);
        state.applyNamespace(new Namespace("research", Map.of("team", "ml")));
        CycleResult relabelled = AdmissionCycle.run(state);

        assertThat(unselected.pending()).singleElement().satisfies(p -> {
            assertThat(p.reason()).isEqualTo(PendingReason.InadmissibleNamespace);
            assertThat(p.inadmissible()).isTrue();
        });
        assertThat(parked.isEmpty()).isTrue();
        assertThat(relabelled.admitted()).extracting(a -> a.workload().name()).containsExactly("train");
    }

    @Test
    void removingANamespaceLeavesItsLabelsBehindAndRetriesTheQueuesThatSelectItNow() {
        selectingQueue(new LabelSelector(Map.of(), List.of(new LabelRequirement("team", "DoesNotExist", List.of()))));
        state.applyNamespace(new Namespace("web", Map.of("team", "web")));
        state.addPending(workload("serve").namespace("web").request("cpu", "1").build());

        CycleResult labelled = AdmissionCycle.run(state);
        state.removeNamespace("web");
        CycleResult removed = AdmissionCycle.run(state);

        assertThat(labelled.pending()).extracting(Decision.Pending::reason)
                .containsExactly(PendingReason.InadmissibleNamespace);
        assertThat(removed.admitted()).extracting(a -> a.workload().name()).containsExactly("serve");
    }

    @Test
    void labelsThatChangeNoSelectionRetryNothing() {
        selectingQueue(new LabelSelector(Map.of("team", "ml"), List.of()));
        state.applyNamespace(new Namespace("research", Map.of("team", "ml")));
        state.addPending(workload("huge").namespace("research").request("cpu", "8").build());
        AdmissionCycle.run(state);

        state.applyNamespace(new Namespace("research", Map.of("team", "ml")));
        state.applyNamespace(new Namespace("research", Map.of("team", "ml", "cost-center", "42")));
        state.removeNamespace("unknown");

        assertThat(state.queueManager().queue("cq").head()).as("nothing moved back from the inadmissible set").isNull();
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("huge");
    }

    @Test
    void everyNamespaceCarriesItsNameAsTheKubernetesMetadataNameLabel() {
        selectingQueue(new LabelSelector(Map.of(Namespace.NAME_LABEL, "research"), List.of()));
        state.addPending(workload("mine").namespace("research").request("cpu", "1").build());
        state.addPending(workload("theirs").namespace("web").request("cpu", "1").build());

        CycleResult cycle = AdmissionCycle.run(state);

        assertThat(new Namespace("web", Map.of(Namespace.NAME_LABEL, "other")).labels())
                .containsExactly(Map.entry(Namespace.NAME_LABEL, "web"));
        assertThat(cycle.admitted()).extracting(a -> a.workload().name()).containsExactly("mine");
        assertThat(cycle.pending()).extracting(p -> p.workload().name(), Decision.Pending::reason)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("theirs", PendingReason.InadmissibleNamespace));
    }

    /** The four-cpu queue with a namespaceSelector, and LocalQueue lq in the namespaces the tests use. */
    private void selectingQueue(LabelSelector selector) {
        state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "4").namespaceSelector(selector).build());
        for (String namespace : List.of("research", "web")) {
            state.applyLocalQueue(new LocalQueueSpec(namespace, "lq", "cq", StopPolicy.None));
        }
    }
}
