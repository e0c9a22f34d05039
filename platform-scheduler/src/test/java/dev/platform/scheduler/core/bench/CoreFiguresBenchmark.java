package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.performance.PerformanceResults;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.DoubleStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pure core's figures for the results file, measured as {@link CpuTimeProbe} and {@link ForecastCpuProbe}
 * measure them (thread CPU time, classical preemption): admission decisions per second over whole 100,000-decision
 * cycles, the preemption decision's percentiles over 10,000 candidates, and the forecast's copy of every cohort
 * tree. Run by the performance profile (docs/performance.md); JMH stays the reference for wall-time figures.
 */
class CoreFiguresBenchmark {

    @Test
    void coreAndForecastFigures() {
        long[] preemption = CpuTimeProbe.preemption(false, 2_000, 500);
        double decisionsPerSecond = CpuTimeProbe.admissionCycle(false, 4, 1);
        assertThat(preemption).isNotEmpty();
        Map<String, Object> core = new LinkedHashMap<>();
        core.put("decisionsPerSecond", Math.round(decisionsPerSecond));
        core.put("preemptionP50Millis", preemption[preemption.length / 2] / 1e6);
        core.put("preemptionP99Millis", preemption[(int) (preemption.length * 0.99)] / 1e6);
        core.put("clock", "thread CPU time, classical preemption, 1,000 ClusterQueues, 100,000 pending");
        PerformanceResults.record("core", core);

        ForecastWorld world = new ForecastWorld();
        List<List<String>> trees = new ArrayList<>(world.state.cohortTrees().values());
        double copy = DoubleStream.generate(() -> ForecastCpuProbe.copyEveryTree(world, trees)).limit(3).min()
                .orElseThrow();
        Map<String, Object> forecast = new LinkedHashMap<>();
        forecast.put("copyMillis", copy);
        forecast.put("clock", "thread CPU time, best of 3, 100 cohort trees, 150,000 workloads");
        PerformanceResults.record("forecast", forecast);
    }
}
