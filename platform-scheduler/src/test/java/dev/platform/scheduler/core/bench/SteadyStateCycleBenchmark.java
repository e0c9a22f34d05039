package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.AdmittedWorkload;
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
import java.util.concurrent.TimeUnit;

/**
 * The incremental case the adapter runs all day: the big world after its first cycle (80,000 admitted, 70,000
 * inadmissible), then one workload finishes in each of 100 queues and one is submitted to each; a cycle should cost
 * what changed, not what exists.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class SteadyStateCycleBenchmark {

    private FakeClock clock;
    private SchedulerState state;
    private final List<String> running = new ArrayList<>();
    private int serial;

    @Setup(Level.Trial)
    public void buildWorld() {
        clock = new FakeClock(CoreFixtures.T0);
        state = ScaleWorld.admissionCycleWorld(clock, false);
        AdmissionCycle.run(state);
        for (AdmittedWorkload a : state.admittedRegistry().all()) {
            running.add(a.uid());
        }
        running.sort(null);
    }

    @Benchmark
    public CycleResult finishHundredAndCycle() {
        for (int q = 0; q < 100; q++) {
            String cq = "cq-" + (q * 10 + serial % 10);
            state.workloadFinished(running.get(serial++ % running.size()));
            state.addPending(ScaleWorld.workload("s" + serial, "lq-" + cq.substring(3), 0, clock.instant(), 1_000));
        }
        clock.advance(Duration.ofSeconds(1));
        return AdmissionCycle.run(state);
    }
}
