package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.Workload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One preemption decision among 10,000 candidates: a cohort of ten ClusterQueues; the preemptor's queue holds 5,000
 * admitted workloads and the nine others 5,000 more, borrowing; the preemptor needs 8 cpu. The measured call is a
 * whole cycle deciding it (flavor assignment, the preemption oracle, the victim search, the decisions). The
 * victims are restored after each call, outside the measurement.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class PreemptionBenchmark {

    static final int CANDIDATES = 10_000;

    @Param({"false", "true"})
    public boolean fairSharing;

    private FakeClock clock;
    private SchedulerState state;
    private final Map<String, Workload> admitted = new HashMap<>();
    private final Map<String, String> queueOf = new HashMap<>();
    private CycleResult last;
    private int serial;

    @Setup(Level.Trial)
    public void buildWorld() {
        clock = new FakeClock(CoreFixtures.T0);
        state = new SchedulerState(clock, fairSharing ? SchedulerSettings.FAIR_SHARING : SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("on-demand"));
        state.applyResourceFlavor(CoreFixtures.flavor("spot"));
        for (int q = 0; q < 10; q++) {
            String cq = "cq-" + q;
            // Queue 0 owns most of the cohort; the others borrow from it.
            state.applyClusterQueue(ScaleWorld.clusterQueue(cq, "cohort", q == 0 ? 9_000_000 : 100_000, 0));
            state.applyLocalQueue(new LocalQueueSpec("default", "lq-" + q, cq, StopPolicy.None));
        }
        for (int i = 0; i < CANDIDATES; i++) {
            int q = i < CANDIDATES / 2 ? 0 : 1 + i % 9;
            String cq = "cq-" + q;
            Workload w = ScaleWorld.workload("v" + i, "lq-" + q, i % 50, CoreFixtures.T0.plusSeconds(i), q == 0 ? 1_000 : 980);
            admitted.put(w.uid(), w);
            queueOf.put(w.uid(), cq);
            state.addAdmitted(w, ScaleWorld.admission(cq, "on-demand", w.podSets().get(0).requests().get("cpu")),
                    CoreFixtures.T0.plusSeconds(i));
        }
        AdmissionCycle.run(state);
    }

    @Benchmark
    public CycleResult preemptionDecision() {
        Workload preemptor = ScaleWorld.workload("preemptor-" + serial++, "lq-0", 100, clock.instant(), 8_000);
        state.addPending(preemptor);
        last = AdmissionCycle.run(state);
        return last;
    }

    @TearDown(Level.Invocation)
    public void restoreVictims() {
        for (Decision.Pending p : last.pending()) {
            state.removePending(p.workload().uid());
        }
        for (Decision.Admit a : last.admitted()) {
            state.workloadFinished(a.workload().uid());
        }
        for (Decision.Preempt p : last.preempted()) {
            state.workloadFinished(p.workload().uid());
            Workload w = admitted.get(p.workload().uid());
            String cq = queueOf.get(w.uid());
            state.addAdmitted(w, ScaleWorld.admission(cq, "on-demand", w.podSets().get(0).requests().get("cpu")),
                    CoreFixtures.T0.plusSeconds(Long.parseLong(w.uid().substring(1))));
        }
        clock.advance(Duration.ofSeconds(1));
    }
}
