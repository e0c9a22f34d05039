package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runtime estimates: quantiles of the history, elapsed time, the maximum execution time, the fallbacks. */
class RuntimeHistoryTest {

    private final RuntimeHistory history = new RuntimeHistory(5, 3);

    @Test
    void quantilesInterpolateBetweenObservedRuntimes() {
        RuntimeEstimate e = RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
                new long[]{minutes(60), minutes(40), minutes(80)}, null);

        assertThat(e.total(Quantile.P10)).isEqualTo(Duration.ofMinutes(44));
        assertThat(e.total(Quantile.P50)).isEqualTo(Duration.ofMinutes(60));
        assertThat(e.total(Quantile.P90)).isEqualTo(Duration.ofMinutes(76));
    }

    @Test
    void aRunningWorkloadIsExpectedToRunAsLongAsTheRuntimesLongerThanItsElapsedTime() {
        RuntimeEstimate e = RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
                new long[]{minutes(60), minutes(120), minutes(240)}, null);

        assertThat(e.totalGiven(Quantile.P50, Duration.ofMinutes(90))).isEqualTo(Duration.ofMinutes(180));
        assertThat(e.totalGiven(Quantile.P50, Duration.ofMinutes(30))).isEqualTo(Duration.ofMinutes(120));
        assertThat(e.totalGiven(Quantile.P90, Duration.ofMinutes(300)))
                .as("past every runtime seen: it ends now, never in the past").isEqualTo(Duration.ofMinutes(300));
    }

    @Test
    void theMaximumExecutionTimeCapsTheHistoryAndStandsInForIt() {
        RuntimeEstimate capped = RuntimeEstimate.fromHistory(RuntimeBasis.LocalQueueHistory,
                new long[]{minutes(60), minutes(120)}, Duration.ofMinutes(90));
        RuntimeEstimate bound = RuntimeEstimate.maximumOnly(Duration.ofMinutes(90));

        assertThat(capped.total(Quantile.P90)).isEqualTo(Duration.ofMinutes(90));
        assertThat(capped.total(Quantile.P10)).isEqualTo(Duration.ofMinutes(66));
        assertThat(bound.basis()).isEqualTo(RuntimeBasis.MaximumExecutionTime);
        assertThat(bound.totalGiven(Quantile.P50, Duration.ofMinutes(30))).isEqualTo(Duration.ofMinutes(90));
    }

    @Test
    void estimatesComeFromWorkloadsAlikeThenFromTheClusterQueueThenFromTheLimit() {
        Workload training = workload("team-a", "lq", "high", 4, null);
        Workload other = workload("team-a", "lq", "high", 8, null);
        Workload limited = workload("team-b", "lq", null, 1, Duration.ofHours(2));

        assertThat(history.estimate(training, "cq").known()).isFalse();
        for (int i = 1; i <= 3; i++) {
            history.record(training, "cq", Duration.ofMinutes(10 * i));
        }

        assertThat(history.estimate(training, "cq").basis()).isEqualTo(RuntimeBasis.LocalQueueHistory);
        assertThat(history.estimate(other, "cq").basis()).as("another shape: the ClusterQueue's history")
                .isEqualTo(RuntimeBasis.ClusterQueueHistory);
        assertThat(history.estimate(other, "cq-elsewhere").known()).isFalse();
        assertThat(history.estimate(limited, "cq-elsewhere").basis()).isEqualTo(RuntimeBasis.MaximumExecutionTime);
        assertThat(history.estimate(limited, "cq-elsewhere").total(Quantile.P50)).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void onlyTheMostRecentRuntimesCount() {
        Workload w = workload("ns", "lq", null, 1, null);
        for (int i = 1; i <= 8; i++) {
            history.record(w, "cq", Duration.ofMinutes(i));
        }

        RuntimeEstimate e = history.estimate(w, "cq");
        assertThat(e.total(Quantile.P10)).as("the five latest, 4..8 min").isGreaterThan(Duration.ofMinutes(4));
        assertThat(e.total(Quantile.P50)).isEqualTo(Duration.ofMinutes(6));
    }

    @Test
    void theKeyIsNamespaceLocalQueuePriorityClassAndShape() {
        RuntimeKey key = RuntimeKey.of(workload("ns", "lq", "high", 4, null));

        assertThat(key).isEqualTo(new RuntimeKey("ns", "lq", "high", "main:4x{cpu=2000}"));
        assertThat(RuntimeKey.of(workload("ns", "lq", "low", 4, null))).isNotEqualTo(key);
    }

    private static Workload workload(String namespace, String localQueue, String priorityClass, int pods,
                                     Duration maximum) {
        return new Workload(namespace + "-" + pods, namespace, "w", localQueue, 0, CoreFixtures.T0,
                List.of(new PodSet("main", pods, pods, Map.of("cpu", 2_000L), Map.of(), List.of(), List.of())),
                priorityClass, maximum);
    }

    private static long minutes(long m) {
        return Duration.ofMinutes(m).toMillis();
    }
}
