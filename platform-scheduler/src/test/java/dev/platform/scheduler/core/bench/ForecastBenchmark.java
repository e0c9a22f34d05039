package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.forecast.Forecaster;
import dev.platform.scheduler.core.forecast.TreeForecast;
import dev.platform.scheduler.core.forecast.WorkloadForecast;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the forecast costs at 1,000 ClusterQueues, 100,000 pending and 50,000 admitted workloads
 * ({@link ForecastWorld}): the copy the scheduling thread makes of every cohort tree (the only part on that thread),
 * the forecast of one whole tree (10 ClusterQueues, 1,000 pending, 500 admitted; three simulations), and a round
 * of a 2 s budget over the 100 trees, with the number of workloads it gives an estimate.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class ForecastBenchmark {

    private ForecastWorld world;
    private Map<String, List<String>> trees;
    private List<SchedulerState> copies;

    @Setup(Level.Trial)
    public void buildWorld() {
        world = new ForecastWorld();
        trees = world.state.cohortTrees();
    }

    @Setup(Level.Invocation)
    public void copyTrees() {
        copies = new ArrayList<>();
        trees.values().forEach(queues -> copies.add(world.state.copyOf(queues, world.clock)));
    }

    /** Workloads given an estimate, reported by JMH next to the time. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Estimates {
        public long estimated;
        public long trees;
    }

    @Benchmark
    public List<SchedulerState> copyEveryTree() {
        List<SchedulerState> copied = new ArrayList<>();
        trees.values().forEach(queues -> copied.add(world.state.copyOf(queues, world.clock)));
        return copied;
    }

    @Benchmark
    public TreeForecast forecastOneTree(Estimates estimates) {
        List<String> queues = trees.values().iterator().next();
        TreeForecast forecast = new Forecaster(world.history, Duration.ofDays(7))
                .forecast(copies.get(0), queues, world.clock.instant(), Duration.ofMinutes(10));
        count(forecast, estimates);
        return forecast;
    }

    @Benchmark
    public long roundOfTwoSeconds(Estimates estimates) {
        Forecaster forecaster = new Forecaster(world.history, Duration.ofDays(7));
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        int i = 0;
        for (List<String> queues : trees.values()) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            count(forecaster.forecast(copies.get(i++), queues, world.clock.instant(), Duration.ofNanos(remaining)),
                    estimates);
        }
        return estimates.estimated;
    }

    private static void count(TreeForecast forecast, Estimates estimates) {
        estimates.trees++;
        estimates.estimated += forecast.forecasts().values().stream().filter(WorkloadForecast::hasEstimate).count();
    }
}
