package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Admission fair sharing over time, on a clock that moves only when told: decay of consumed resources, the sampling
 * interval, the entry penalty and its settlement, and the usage surviving a new state.
 */
class AdmissionFairSharingTest {

    private static final Duration HALF_LIFE = Duration.ofMinutes(10);
    private static final Duration SAMPLING = Duration.ofMinutes(1);
    private static final AdmissionFairSharing SETTINGS = new AdmissionFairSharing(HALF_LIFE, SAMPLING, Map.of());

    private final FakeClock clock = new FakeClock(CoreFixtures.T0);
    private SchedulerState state;

    @BeforeEach
    void queueOfEightCpuWithTwoLocalQueues() {
        state = stateWith(SETTINGS);
    }

    private SchedulerState stateWith(AdmissionFairSharing settings) {
        SchedulerState s = new SchedulerState(clock, SchedulerSettings.CLASSICAL.withAdmissionFairSharing(settings));
        s.applyResourceFlavor(CoreFixtures.flavor("default"));
        s.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "8")
                .admissionMode(AdmissionMode.UsageBasedAdmissionFairSharing).build());
        s.applyLocalQueue(new LocalQueueSpec("default", "lq-a", "cq", StopPolicy.None));
        s.applyLocalQueue(new LocalQueueSpec("default", "lq-b", "cq", StopPolicy.None));
        return s;
    }

    @Test
    void anIdleLocalQueuesConsumedResourcesHalveEveryHalfLife() {
        state.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));
        AdmissionCycle.run(state);

        clock.advance(HALF_LIFE);
        AdmissionCycle.run(state);
        double afterOne = cpu("lq-a");
        clock.advance(HALF_LIFE);
        AdmissionCycle.run(state);

        assertThat(afterOne).isCloseTo(4_000, within(1e-6));
        assertThat(cpu("lq-a")).isCloseTo(2_000, within(1e-6));
    }

    @Test
    void consumedResourcesApproachWhatTheLocalQueueHolds() {
        admit(workload("running").queue("lq-a").request("cpu", "4").build());
        AdmissionCycle.run(state);

        clock.advance(HALF_LIFE);
        AdmissionCycle.run(state);
        double afterOne = cpu("lq-a");
        clock.advance(HALF_LIFE);
        AdmissionCycle.run(state);

        assertThat(afterOne).as("half way from 0 to the 4 cpu held").isCloseTo(2_000, within(1e-6));
        assertThat(cpu("lq-a")).as("three quarters of the way").isCloseTo(3_000, within(1e-6));
    }

    @Test
    void everyLocalQueueIsSampledAtMostOncePerSamplingInterval() {
        state.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));
        AdmissionCycle.run(state);
        Instant sampled = clock.instant();

        clock.advance(SAMPLING.dividedBy(2));
        AdmissionCycle.run(state);
        LocalQueueUsage withinTheInterval = state.fairSharing().usage("default", "lq-a").orElseThrow();
        clock.advance(SAMPLING.dividedBy(2));
        AdmissionCycle.run(state);

        assertThat(withinTheInterval.lastUpdate()).isEqualTo(sampled);
        assertThat(withinTheInterval.consumedResources().get("cpu")).isEqualTo(8_000.0);
        assertThat(state.fairSharing().usage("default", "lq-a").orElseThrow().lastUpdate()).isEqualTo(clock.instant());
        assertThat(cpu("lq-a")).isCloseTo(8_000 * Math.pow(0.5, (double) SAMPLING.toSeconds() / HALF_LIFE.toSeconds()),
                within(1e-6));
    }

    @Test
    void anAdmissionChargesItsEntryPenaltyAtOnceAndSettlesItWithTheNextCycle() {
        AdmissionCycle.run(state);
        Instant admittedAt = clock.instant();
        state.addPending(workload("a1").queue("lq-a").request("cpu", "2").build());

        CycleResult admitting = AdmissionCycle.run(state);
        double charged = cpu("lq-a");
        clock.advance(Duration.ofSeconds(10));
        AdmissionCycle.run(state);

        double penalty = 2_000 * SETTINGS.entryPenalty();
        assertThat(admitting.admitted()).extracting(a -> a.workload().name()).containsExactly("a1");
        assertThat(SETTINGS.entryPenalty()).as("one sampling interval's worth")
                .isCloseTo(1 - Math.pow(0.5, (double) SAMPLING.toSeconds() / HALF_LIFE.toSeconds()), within(1e-12));
        assertThat(charged).isCloseTo(penalty, within(1e-6));
        LocalQueueUsage settled = state.fairSharing().usage("default", "lq-a").orElseThrow();
        assertThat(settled.lastUpdate()).as("updated on admission, not only when sampled").isEqualTo(clock.instant())
                .isNotEqualTo(admittedAt);
        assertThat(settled.consumedResources().get("cpu"))
                .isCloseTo(penalty + 2_000 * SETTINGS.alpha(Duration.ofSeconds(10)), within(1e-6));
    }

    @Test
    void anAdmissionUndoneBeforeItSettlesLeavesNoPenalty() {
        AdmissionCycle.run(state);
        state.addPending(workload("a1").queue("lq-a").request("cpu", "2").build());
        AdmissionCycle.run(state);

        state.workloadFinished("a1");
        clock.advance(Duration.ofSeconds(10));
        AdmissionCycle.run(state);

        assertThat(cpu("lq-a")).isZero();
    }

    @Test
    void twoWorkloadsOfOneLocalQueueDoNotBothWinACycleOnEqualUsage() {
        AdmissionCycle.run(state);
        state.addPending(workload("a1").queue("lq-a").queuedAt(clock.instant()).request("cpu", "4").build());
        state.addPending(workload("a2").queue("lq-a").queuedAt(clock.instant().plusSeconds(1)).request("cpu", "4").build());
        state.addPending(workload("b1").queue("lq-b").queuedAt(clock.instant().plusSeconds(2)).request("cpu", "4").build());

        CycleResult cycle = AdmissionCycle.run(state);

        assertThat(cycle.admitted()).extracting(a -> a.workload().name()).containsExactly("a1", "b1");
    }

    @Test
    void aZeroHalfLifeForgetsEverySampleAndChargesNoPenalty() {
        state = stateWith(new AdmissionFairSharing(Duration.ZERO, SAMPLING, Map.of()));
        state.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));
        state.addPending(workload("a1").queue("lq-a").request("cpu", "2").build());

        AdmissionCycle.run(state);

        assertThat(state.fairSharing().usage("default", "lq-a").orElseThrow().consumedResources())
                .allSatisfy((resource, amount) -> assertThat(amount).isZero());
        assertThat(state.admittedRegistry().find("a1")).isPresent();
    }

    @Test
    void theUsageTakenFromOneStateOrdersTheNextLikeIt() {
        admit(workload("running").queue("lq-a").request("cpu", "4").build());
        AdmissionCycle.run(state);
        clock.advance(HALF_LIFE);
        AdmissionCycle.run(state);
        List<LocalQueueUsage> persisted = state.fairSharing().takeChanged();

        SchedulerState restarted = stateWith(SETTINGS);
        persisted.forEach(restarted.fairSharing()::restore);
        for (SchedulerState s : List.of(state, restarted)) {
            s.addPending(workload("a-high").queue("lq-a").priority(5).request("cpu", "8").build());
            s.addPending(workload("b-low").queue("lq-b").priority(0).request("cpu", "8").build());
        }

        assertThat(persisted).extracting(LocalQueueUsage::name).containsExactlyInAnyOrder("lq-a", "lq-b");
        assertThat(restarted.fairSharing().usage("default", "lq-a")).isEqualTo(state.fairSharing().usage("default", "lq-a"));
        assertThat(restarted.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("b-low", "a-high");
        assertThat(state.fairSharing().takeChanged()).as("taken once").isEmpty();
    }

    @Test
    void theForecastsCopyOrdersByTheSameUsage() {
        state.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));
        state.addPending(workload("a-high").queue("lq-a").priority(5).request("cpu", "8").build());
        state.addPending(workload("b-low").queue("lq-b").priority(0).request("cpu", "8").build());

        SchedulerState copy = state.copyOf(List.of("cq"), clock);
        CycleResult copied = AdmissionCycle.run(copy);

        assertThat(copy.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("a-high");
        assertThat(copied.admitted()).extracting(a -> a.workload().name()).containsExactly("b-low");
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("b-low", "a-high");
    }

    @Test
    void turningTheModeOnOrOffReordersWhatWaits() {
        state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "8")
                .admissionMode(AdmissionMode.NoAdmissionFairSharing).build());
        state.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));
        state.addPending(workload("a-high").queue("lq-a").priority(5).request("cpu", "8").build());
        state.addPending(workload("b-low").queue("lq-b").priority(0).request("cpu", "8").build());
        List<Workload> off = state.queueManager().pendingInOrder("cq");

        state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "8")
                .admissionMode(AdmissionMode.UsageBasedAdmissionFairSharing).build());

        assertThat(off).extracting(Workload::name).containsExactly("a-high", "b-low");
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("b-low", "a-high");
    }

    @Test
    void aLocalQueuesWeightDividesItsUsage() {
        state.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));
        state.fairSharing().restore(usage("lq-b", 6_000, clock.instant()));
        state.addPending(workload("a1").queue("lq-a").request("cpu", "8").build());
        state.addPending(workload("b1").queue("lq-b").request("cpu", "8").build());
        List<Workload> equalWeights = state.queueManager().pendingInOrder("cq");

        state.applyLocalQueue(new LocalQueueSpec("default", "lq-a", "cq", StopPolicy.None, 2));

        assertThat(equalWeights).extracting(Workload::name).containsExactly("b1", "a1");
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("a1", "b1");
    }

    @Test
    void withoutTheSettingsNothingIsKept() {
        SchedulerState off = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        off.applyLocalQueue(new LocalQueueSpec("default", "lq-a", "cq", StopPolicy.None));
        off.fairSharing().restore(usage("lq-a", 8_000, clock.instant()));

        assertThat(off.fairSharing().usage("default", "lq-a")).isEmpty();
        assertThat(off.fairSharing().takeChanged()).isEmpty();
    }

    private void admit(Workload w) {
        long cpu = w.podSets().get(0).requests().get("cpu");
        state.addAdmitted(w, new Admission("cq", List.of(new PodSetAssignment("main", 1, Map.of("cpu", "default"),
                Map.of("cpu", cpu)))), clock.instant());
    }

    private double cpu(String localQueue) {
        return state.fairSharing().usage("default", localQueue).orElseThrow().consumedResources().getOrDefault("cpu", 0.0);
    }

    private static LocalQueueUsage usage(String localQueue, double cpuMilli, Instant at) {
        return new LocalQueueUsage("default", localQueue, Map.of("cpu", cpuMilli), at);
    }
}
