package dev.platform.scheduler.forecast;

import dev.platform.scheduler.core.forecast.ArrivalBasis;
import dev.platform.scheduler.core.forecast.ForecastBasis;
import dev.platform.scheduler.core.forecast.WorkloadForecast;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Forecast rows: a tree's write upserts what changed, drops what is gone, skips a workload deleted meanwhile
 * and stamps its ClusterQueues; a forecast reads with its queue's time and staleness; a new leader drops the
 * rows of workloads no longer waiting and marks the rest stale, and reads the submissions to learn arrivals from.
 */
@StoreSliceTest
class ForecastStoreTest {

    private static final Instant T0 = StoreSliceTest.NOW;

    @Autowired
    ForecastStore store;

    @Autowired
    WorkloadStore workloads;

    @Autowired
    WorkloadTransitions transitions;

    private UUID waiting;
    private UUID other;

    @BeforeEach
    void twoPendingWorkloads() {
        waiting = submit(transitions, "team-a", "waiting", "lq", "cq", 0, T0);
        other = submit(transitions, "team-a", "other", "lq", "cq", 0, T0);
    }

    private static ForecastStore.Entry at(Instant estimate) {
        return new ForecastStore.Entry("cq", new WorkloadForecast(estimate, estimate.minusSeconds(60),
                estimate.plusSeconds(60), ForecastBasis.QuotaAvailable, "quota frees up"));
    }

    private WorkloadStatus.Forecast forecast(UUID uid) {
        return workloads.forecasts(List.of(uid)).get(uid);
    }

    @Test
    void aTreesWriteUpsertsDropsAndStampsItsQueues() {
        store.writeTree(List.of("cq"), Map.of(waiting.toString(), at(T0.plusSeconds(600)),
                other.toString(), at(T0.plusSeconds(900)), UUID.randomUUID().toString(), at(T0)), List.of(), T0);

        store.writeTree(List.of("cq"), Map.of(waiting.toString(), at(T0.plusSeconds(300))), List.of(other.toString()),
                T0.plusSeconds(30));

        assertThat(forecast(waiting)).isEqualTo(new WorkloadStatus.Forecast(T0.plusSeconds(300), T0.plusSeconds(240),
                T0.plusSeconds(360), "QuotaAvailable", "quota frees up", T0.plusSeconds(30), false,
                T0.plusSeconds(300), "NoArrivalHistory"));
        assertThat(workloads.forecasts(List.of(waiting, other))).containsOnlyKeys(waiting);
    }

    @Test
    void aForecastWithArrivalsKeepsTheTimeIfNothingArrives() {
        WorkloadForecast withArrivals = new WorkloadForecast(T0.plusSeconds(900), T0.plusSeconds(600),
                T0.plusSeconds(1800), ForecastBasis.LocalQueueHistory, "median over 21 runs", T0.plusSeconds(300),
                ArrivalBasis.ArrivalHistory);

        store.writeTree(List.of("cq"), Map.of(waiting.toString(), new ForecastStore.Entry("cq", withArrivals)),
                List.of(), T0);

        assertThat(forecast(waiting)).isEqualTo(new WorkloadStatus.Forecast(T0.plusSeconds(900), T0.plusSeconds(600),
                T0.plusSeconds(1800), "LocalQueueHistory", "median over 21 runs", T0, false, T0.plusSeconds(300),
                "ArrivalHistory"));
    }

    @Test
    void aNewLeaderReadsTheSubmissionsOfTheLastWeeksUpToItsPositionInTheChangeFeed() {
        submit(transitions, "team-a", "long-ago", "lq", "cq", 0, T0.minus(Duration.ofDays(40)));
        submit(transitions, "team-a", "recent", "lq", "cq", 0, T0.plusSeconds(60));
        long position = workloads.find("team-a", "recent").orElseThrow().changeSeq();
        submit(transitions, "team-a", "after-the-position", "lq", "cq", 0, T0.plusSeconds(120));
        Instant since = T0.minus(Duration.ofDays(28));

        assertThat(workloads.submittedSince(since, position, 10)).extracting(WorkloadRow::name)
                .startsWith("recent").containsExactlyInAnyOrder("recent", "waiting", "other");
        assertThat(workloads.submittedSince(since, position, 1)).extracting(WorkloadRow::name)
                .as("the latest first").containsExactly("recent");
    }

    @Test
    void aChangedTreeNotForecastAgainIsStale() {
        store.writeTree(List.of("cq"), Map.of(waiting.toString(), at(T0.plusSeconds(600))), List.of(), T0);

        store.markStale(List.of("cq"));

        assertThat(forecast(waiting).stale()).isTrue();
        store.writeTree(List.of("cq"), Map.of(), List.of(), T0.plusSeconds(5));
        assertThat(forecast(waiting)).satisfies(f -> {
            assertThat(f.stale()).isFalse();
            assertThat(f.computedAt()).as("the queue's time").isEqualTo(T0.plusSeconds(5));
            assertThat(f.estimatedAdmissionAt()).isEqualTo(T0.plusSeconds(600));
        });
    }

    @Test
    void aNewLeaderDropsTheForecastsOfWorkloadsNoLongerWaitingAndDistrustsTheRest() {
        store.writeTree(List.of("cq"), Map.of(waiting.toString(), at(T0.plusSeconds(600)),
                other.toString(), at(T0.plusSeconds(900))), List.of(), T0);
        transitions.cancel(other, T0, "alice");

        store.leadershipTaken();

        assertThat(workloads.forecasts(List.of(waiting, other))).containsOnlyKeys(waiting);
        assertThat(forecast(waiting).stale()).isTrue();
    }
}
