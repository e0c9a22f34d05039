package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.forecast.Forecaster;
import dev.platform.scheduler.core.forecast.TreeForecast;
import dev.platform.scheduler.core.forecast.WorkloadForecast;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ForecastBenchmark}'s measurements in thread CPU time (see {@link CpuTimeProbe} for why): the copy of every
 * cohort tree, the whole forecast of a few trees, and rounds of the default 1 s budget. Run as a main; see
 * docs/performance.md.
 */
public final class ForecastCpuProbe {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int TREES_FORECAST = 5;

    private ForecastCpuProbe() {
    }

    public static void main(String[] args) {
        ForecastWorld world = new ForecastWorld();
        List<List<String>> trees = new ArrayList<>(world.state.cohortTrees().values());
        for (int i = 0; i < 3; i++) {
            copyEveryTree(world, trees);
        }
        Forecaster forecaster = new Forecaster(world.history, Duration.ofDays(7));
        for (int i = 0; i < TREES_FORECAST; i++) {
            List<String> queues = trees.get(i);
            SchedulerState copy = world.state.copyOf(queues, world.clock);
            long start = THREADS.getCurrentThreadCpuTime();
            TreeForecast forecast = forecaster.forecast(copy, queues, world.clock.instant(), Duration.ofMinutes(30));
            System.out.printf("whole forecast of tree %d (%d workloads, %d estimates, three simulations): cpu %.0f ms%n",
                    i, copy.workloadCount(), estimates(forecast), ms(THREADS.getCurrentThreadCpuTime() - start));
        }
        for (int round = 0; round < 3; round++) {
            long start = THREADS.getCurrentThreadCpuTime();
            long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            long estimated = 0;
            int forecastTrees = 0;
            for (List<String> queues : trees) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    break;
                }
                estimated += estimates(forecaster.forecast(world.state.copyOf(queues, world.clock), queues,
                        world.clock.instant(), Duration.ofNanos(remaining)));
                forecastTrees++;
            }
            System.out.printf("round of 1 s: %d trees touched, %d workloads with an estimate, cpu %.0f ms%n",
                    forecastTrees, estimated, ms(THREADS.getCurrentThreadCpuTime() - start));
        }
    }

    /** Copies every cohort tree for a forecast round, as the scheduling thread does; returns the CPU time in ms. */
    static double copyEveryTree(ForecastWorld world, List<List<String>> trees) {
        long start = THREADS.getCurrentThreadCpuTime();
        List<SchedulerState> copies = new ArrayList<>();
        trees.forEach(queues -> copies.add(world.state.copyOf(queues, world.clock)));
        double cpu = ms(THREADS.getCurrentThreadCpuTime() - start);
        System.out.printf("copy of %d trees (%d workloads): cpu %.0f ms%n", copies.size(),
                copies.stream().mapToInt(SchedulerState::workloadCount).sum(), cpu);
        return cpu;
    }

    private static long estimates(TreeForecast forecast) {
        return forecast.forecasts().values().stream().filter(WorkloadForecast::hasEstimate).count();
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
