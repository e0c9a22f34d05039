package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

/** What the scenario files do not show: the state is left alone, the budget and the change stamps. */
class ForecasterTest {

    private final FakeClock clock = new FakeClock(CoreFixtures.T0);
    private final RuntimeModel thirtyMinutes = (w, cq) -> RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
            new long[]{Duration.ofMinutes(30).toMillis()}, null);
    private SchedulerState state;

    @BeforeEach
    void queueWithOneRunningAndTwoWaiting() {
        state = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("default"));
        state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "2").build());
        state.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        Workload running = workload("running").request("cpu", "2").build();
        state.addAdmitted(running, new Admission("cq", List.of(new PodSetAssignment("main", 1,
                Map.of("cpu", "default"), Map.of("cpu", 2_000L)))), CoreFixtures.T0);
        state.addPending(workload("first").request("cpu", "2").queuedAt(CoreFixtures.T0.plusSeconds(1)).build());
        state.addPending(workload("second").request("cpu", "2").queuedAt(CoreFixtures.T0.plusSeconds(2)).build());
    }

    @Test
    void theForecastRunsOnCopiesAndLeavesTheStateAsItWas() {
        List<String> queues = state.cohortTrees().get("clusterqueue/cq");
        long stamp = state.lastChange(queues);

        TreeForecast forecast = new Forecaster(thirtyMinutes, Duration.ofDays(1))
                .forecast(state.copyOf(queues, clock), queues, clock.instant(), Duration.ofSeconds(10));

        assertThat(forecast.forecasts().get("first").estimatedAdmissionAt()).isEqualTo(CoreFixtures.T0.plusSeconds(1800));
        assertThat(forecast.forecasts().get("second").estimatedAdmissionAt()).isEqualTo(CoreFixtures.T0.plusSeconds(3600));
        assertThat(forecast.validUntil()).isEqualTo(CoreFixtures.T0.plusSeconds(1800));
        assertThat(state.queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("first", "second");
        assertThat(state.admittedRegistry().all()).extracting(a -> a.workload().name()).containsExactly("running");
        assertThat(state.lastChange(queues)).isEqualTo(stamp);
    }

    @Test
    void aSpentBudgetGivesOnlyTheEarliestTimeAndSaysSo() {
        List<String> queues = List.of("cq");

        TreeForecast forecast = new Forecaster(thirtyMinutes, Duration.ofDays(1))
                .forecast(state.copyOf(queues, clock), queues, clock.instant(), Duration.ZERO);

        assertThat(forecast.outOfTime()).isTrue();
        assertThat(forecast.forecasts().get("second").basis()).isEqualTo(ForecastBasis.BeyondHorizon);
        assertThat(forecast.forecasts().get("second").p10()).isEqualTo(clock.instant());
    }

    /**
     * A preemptor whose victim is within its queue's minimum runtime is admitted when the protection ends, as the
     * scheduling loop tries it again then: not at the victim's finish, two hours later.
     */
    @Test
    void aPreemptorWaitingForAMinimumRuntimeIsForecastAtItsEnd() {
        SchedulerState protectedQueue = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        protectedQueue.applyResourceFlavor(CoreFixtures.flavor("default"));
        protectedQueue.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "2")
                .preemption(new PreemptionPolicy(WithinClusterQueuePolicy.LowerPriority, null, null, null))
                .minimumRuntime(Duration.ofMinutes(20)).build());
        protectedQueue.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        Workload low = workload("low").priority(1).request("cpu", "2").build();
        protectedQueue.addAdmitted(low, new Admission("cq", List.of(new PodSetAssignment("main", 1,
                Map.of("cpu", "default"), Map.of("cpu", 2_000L)))), CoreFixtures.T0.minus(Duration.ofMinutes(5)));
        protectedQueue.addPending(workload("high").priority(100).request("cpu", "2").build());
        RuntimeModel twoHours = (w, cq) -> RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
                new long[]{Duration.ofHours(2).toMillis()}, null);
        List<String> queues = List.of("cq");

        TreeForecast forecast = new Forecaster(twoHours, Duration.ofDays(1))
                .forecast(protectedQueue.copyOf(queues, clock), queues, clock.instant(), Duration.ofSeconds(10));

        assertThat(forecast.forecasts().get("high").estimatedAdmissionAt())
                .isEqualTo(CoreFixtures.T0.plus(Duration.ofMinutes(15)));
    }

    /** A ClusterQueue with admission checks: the time forecast is the quota reservation's, and the message says so. */
    @Test
    void aWorkloadOfAQueueWithChecksIsForecastToReserveQuotaThenWaitForThem() {
        state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", "2").build()
                .withAdmissionChecks(dev.platform.scheduler.core.model.AdmissionCheckStrategy.of(List.of("dws"))));
        List<String> queues = List.of("cq");

        TreeForecast forecast = new Forecaster(thirtyMinutes, Duration.ofDays(1))
                .forecast(state.copyOf(queues, clock), queues, clock.instant(), Duration.ofSeconds(10));

        WorkloadForecast first = forecast.forecasts().get("first");
        assertThat(first.estimatedAdmissionAt()).isEqualTo(CoreFixtures.T0.plusSeconds(1800));
        assertThat(first.message()).startsWith("quota reserved after 1 workload in its cohort finish")
                .endsWith("; then waits for admission checks (dws) before it is admitted");
    }

    @Test
    void changesToAQueueStampItsTreeAndOnlyIt() {
        state.applyClusterQueue(clusterQueue("other").quota("default", "cpu", "2").build());
        long cq = state.lastChange(List.of("cq"));
        long other = state.lastChange(List.of("other"));

        state.addPending(workload("third").request("cpu", "1").build());

        assertThat(state.lastChange(List.of("cq"))).isGreaterThan(cq);
        assertThat(state.lastChange(List.of("other"))).isEqualTo(other);
    }

    /**
     * A stopped ClusterQueue's backlog stays out of the copy the scheduling thread makes: no cycle admits it, so the
     * rest of its cohort is forecast as with it, and its workloads get what the simulation would have told them.
     * What the stopped ClusterQueue holds is copied: its running workload's finish lends quota to the cohort.
     */
    @Test
    void aStoppedClusterQueuesBacklogStaysOutOfTheCopyAndChangesNothingForItsCohort() {
        SchedulerState cohort = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        cohort.applyResourceFlavor(CoreFixtures.flavor("default"));
        cohort.applyClusterQueue(clusterQueue("cq").cohort("shared").quota("default", "cpu", "2").build());
        cohort.applyClusterQueue(clusterQueue("held").cohort("shared").quota("default", "cpu", "2")
                .stopPolicy(StopPolicy.Hold).build());
        cohort.applyLocalQueue(new LocalQueueSpec("default", "lq", "cq", StopPolicy.None));
        cohort.applyLocalQueue(new LocalQueueSpec("default", "held-lq", "held", StopPolicy.None));
        cohort.addAdmitted(workload("running").request("cpu", "2").build(), new Admission("cq", List.of(
                new PodSetAssignment("main", 1, Map.of("cpu", "default"), Map.of("cpu", 2_000L)))), CoreFixtures.T0);
        cohort.addAdmitted(workload("held-running").queue("held-lq").request("cpu", "2").build(), new Admission("held",
                List.of(new PodSetAssignment("main", 1, Map.of("cpu", "default"), Map.of("cpu", 2_000L)))),
                CoreFixtures.T0);
        cohort.addPending(workload("first").request("cpu", "2").queuedAt(CoreFixtures.T0.plusSeconds(1)).build());
        cohort.addPending(workload("second").request("cpu", "2").queuedAt(CoreFixtures.T0.plusSeconds(2)).build());
        for (int i = 0; i < 3; i++) {
            cohort.addPending(workload("held-waiting-" + i).queue("held-lq").request("cpu", "1")
                    .queuedAt(CoreFixtures.T0.plusSeconds(3 + i)).build());
        }
        List<String> queues = cohort.cohortTrees().values().iterator().next();
        Forecaster forecaster = new Forecaster(thirtyMinutes, Duration.ofDays(1));

        SchedulerState whole = cohort.copyOf(queues, clock);
        SchedulerState withoutBacklog = cohort.copyOf(queues, Set.of("held"), clock);
        TreeForecast simulated = forecaster.forecast(whole, queues, clock.instant(), Duration.ofSeconds(10));
        TreeForecast leftOut = forecaster.forecast(withoutBacklog, queues, clock.instant(), Duration.ofSeconds(10));

        assertThat(cohort.isStopped("held")).isTrue();
        assertThat(cohort.isStopped("cq")).isFalse();
        assertThat(withoutBacklog.workloadCount()).as("both running workloads, cq's two waiting")
                .isEqualTo(whole.workloadCount() - 3).isEqualTo(4);
        assertThat(leftOut.forecasts()).containsOnlyKeys("first", "second");
        assertThat(leftOut.forecasts().get("second").estimatedAdmissionAt())
                .as("held-running's finish lends its quota to the cohort").isEqualTo(CoreFixtures.T0.plusSeconds(1800));
        assertThat(leftOut.forecasts().get("first")).isEqualTo(simulated.forecasts().get("first"));
        assertThat(leftOut.forecasts().get("second")).isEqualTo(simulated.forecasts().get("second"));
        for (int i = 0; i < 3; i++) {
            assertThat(Forecaster.inStoppedQueue("held")).isEqualTo(simulated.forecasts().get("held-waiting-" + i));
        }
        assertThat(cohort.queueManager().waitingIn("held")).extracting(Workload::name)
                .containsExactlyInAnyOrder("held-waiting-0", "held-waiting-1", "held-waiting-2");
    }
}
