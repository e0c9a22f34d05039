package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerState;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * An admission cycle over 1,000 ClusterQueues in 100 cohorts, 2 flavors, 100,000 pending and 50,000 admitted
 * workloads. Phase {@code first}: the first cycle on that state (30,000 admissions; one head per queue is skipped
 * when its cohort fills up and retried next cycle). Phase {@code backlog}: the cycle after it, which finds the
 * remaining ~70,000 workloads inadmissible one by one. Each measured call is one cycle on a freshly built state
 * (built outside the measurement); the decision counts are reported next to the time.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class AdmissionCycleBenchmark {

    @Param({"false", "true"})
    public boolean fairSharing;

    @Param({"first", "backlog"})
    public String phase;

    private SchedulerState state;

    @Setup(Level.Invocation)
    public void buildWorld() {
        FakeClock clock = new FakeClock(CoreFixtures.T0);
        state = ScaleWorld.admissionCycleWorld(clock, fairSharing);
        if (phase.equals("backlog")) {
            state.runCycle();
            clock.advance(Duration.ofSeconds(1));
        }
    }

    /** Decisions taken, reported by JMH next to the time. */
    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class Decisions {
        public long admitted;
        public long pending;
    }

    @Benchmark
    public CycleResult fullCycle(Decisions decisions) {
        CycleResult result = state.runCycle();
        decisions.admitted += result.admitted().size();
        decisions.pending += result.pending().size();
        return result;
    }
}
