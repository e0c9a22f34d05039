package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSetAssignment;
import dev.platform.scheduler.core.model.StopPolicy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.core.CoreFixtures.T0;
import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forecast with arrivals: two separate ClusterQueues of 2 cpu, each with a running workload that ends in 30
 * minutes and one waiting behind it. High-priority work arrives at "busy" about every 45 minutes; "quiet" has no
 * submission history.
 */
class ArrivalForecastTest {

    private static final Duration HORIZON = Duration.ofDays(1);
    private final FakeClock clock = new FakeClock(T0);
    private final RuntimeModel thirtyMinutes = (w, cq) -> RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
            new long[]{Duration.ofMinutes(30).toMillis()}, null);
    private final ArrivalHistory submissions = new ArrivalHistory(5);
    private SchedulerState state;

    @BeforeEach
    void twoQueuesOneWithASubmissionHistory() {
        state = new SchedulerState(clock, SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("default"));
        for (String cq : List.of("busy", "quiet")) {
            state.applyClusterQueue(clusterQueue(cq).quota("default", "cpu", "2").build());
            state.applyLocalQueue(new LocalQueueSpec("default", cq + "-lq", cq, StopPolicy.None));
            state.addAdmitted(workload(cq + "-running").queue(cq + "-lq").request("cpu", "2").build(),
                    new Admission(cq, List.of(new PodSetAssignment("main", 1, Map.of("cpu", "default"),
                            Map.of("cpu", 2_000L)))), T0);
            state.addPending(workload(cq + "-waiting").queue(cq + "-lq").request("cpu", "2").queuedAt(T0.plusSeconds(1))
                    .build());
        }
        for (int i = 0; i <= 12; i++) {
            Instant at = T0.minus(Duration.ofMinutes(45L * (12 - i)));
            submissions.record(workload("high-" + i).queue("busy-lq").priority(100).request("cpu", "2").queuedAt(at)
                    .build(), at);
        }
    }

    private TreeForecast forecast(Forecaster forecaster, String cq) {
        List<String> queues = List.of(cq);
        return forecaster.forecast(state.copyOf(queues, clock), queues, clock.instant(), Duration.ofSeconds(30));
    }

    @Test
    void aQueueWithoutSubmissionHistoryGetsTheForecastWithoutArrivals() {
        TreeForecast withArrivals = forecast(new Forecaster(thirtyMinutes, submissions, HORIZON, 21), "quiet");
        TreeForecast without = forecast(new Forecaster(thirtyMinutes, HORIZON), "quiet");

        assertThat(withArrivals).isEqualTo(without);
        assertThat(withArrivals.forecasts().get("quiet-waiting")).satisfies(f -> {
            assertThat(f.arrivals()).isEqualTo(ArrivalBasis.NoArrivalHistory);
            assertThat(f.estimatedAdmissionAt()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
            assertThat(f.ifNothingArrivesAt()).isEqualTo(f.estimatedAdmissionAt());
        });
    }

    @Test
    void expectedHighPriorityArrivalsWidenTheRangeButNotTheTimeIfNothingArrives() {
        WorkloadForecast f = forecast(new Forecaster(thirtyMinutes, submissions, HORIZON, 21), "busy").forecasts()
                .get("busy-waiting");

        assertThat(f.arrivals()).isEqualTo(ArrivalBasis.ArrivalHistory);
        assertThat(f.ifNothingArrivesAt()).isEqualTo(T0.plus(Duration.ofMinutes(30)));
        assertThat(f.p10()).as("arrivals only delay it: runtimes are exact").isEqualTo(f.ifNothingArrivesAt());
        assertThat(f.estimatedAdmissionAt()).isAfterOrEqualTo(f.p10());
        assertThat(f.p90() == null ? Instant.MAX : f.p90())
                .as("an overtaking arrival within the half hour is likelier than one in ten (null: later)")
                .isAfterOrEqualTo(T0.plus(Duration.ofMinutes(60)));
        assertThat(f.message()).startsWith(
                "least error over the wait of 21 runs with the submissions expected from the history");
    }

    @Test
    void theEstimateWeighsEachRunByOneOverItsWait() {
        List<Instant> runs = List.of(T0.plus(Duration.ofMinutes(10)), T0.plus(Duration.ofMinutes(12)),
                T0.plus(Duration.ofMinutes(100)), T0.plus(Duration.ofMinutes(110)), T0.plus(Duration.ofMinutes(120)),
                Instant.MAX);

        assertThat(Forecaster.leastRelativeError(runs, T0)).as("the plain median is the 100-minute run")
                .isEqualTo(T0.plus(Duration.ofMinutes(12)));
        assertThat(Forecaster.leastRelativeError(runs.subList(2, 6), T0)).as("a run that does not admit weighs nothing")
                .isEqualTo(T0.plus(Duration.ofMinutes(110)));
        assertThat(Forecaster.leastRelativeError(List.of(T0, T0.plus(Duration.ofSeconds(30)),
                T0.plus(Duration.ofMinutes(1)), T0.plus(Duration.ofMinutes(2))), T0))
                .as("a wait under a minute weighs as one minute").isEqualTo(T0.plus(Duration.ofSeconds(30)));
    }

    @Test
    void theSameStateAndTimeGiveTheSameForecast() {
        Forecaster forecaster = new Forecaster(thirtyMinutes, submissions, HORIZON, 21);

        assertThat(forecast(forecaster, "busy")).isEqualTo(forecast(forecaster, "busy"));
    }
}
