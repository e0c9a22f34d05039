package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.AdmissionCycle;
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

import java.util.concurrent.TimeUnit;

/**
 * One admission cycle over 1,000 ClusterQueues in 100 cohorts, 2 flavors, 100,000 pending and 50,000 admitted
 * workloads: it decides every pending workload, 30,000 admissions and 70,000 inadmissible. Each measured call is
 * one cycle on a freshly built state (built outside the measurement); the decision counts are reported next to
 * the time.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class AdmissionCycleBenchmark {

    @Param({"false", "true"})
    public boolean fairSharing;

    private SchedulerState state;

    @Setup(Level.Invocation)
    public void buildWorld() {
        state = ScaleWorld.admissionCycleWorld(new FakeClock(CoreFixtures.T0), fairSharing);
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
        CycleResult result = AdmissionCycle.run(state);
        decisions.admitted += result.admitted().size();
        decisions.pending += result.pending().size();
        return result;
    }
}
