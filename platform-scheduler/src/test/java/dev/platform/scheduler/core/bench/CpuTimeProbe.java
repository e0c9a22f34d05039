package dev.platform.scheduler.core.bench;

import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerState;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The same workloads as the JMH benchmarks, timed in thread CPU time rather than wall time: on a machine shared
 * with other builds, wall time mostly measures the wait for a core. Not a replacement for JMH (no forking, no
 * blackholes), a second view. Run as a main; see docs/performance.md.
 */
public final class CpuTimeProbe {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTimeProbe() {
    }

    public static void main(String[] args) {
        for (boolean fairSharing : new boolean[] {false, true}) {
            preemption(fairSharing, 2_000, 500);
            admissionCycle(fairSharing, 4, 1);
        }
    }

    /** Times {@code calls} preemption decisions; returns the CPU times after the warm-up, sorted, in nanoseconds. */
    static long[] preemption(boolean fairSharing, int calls, int warmup) {
        PreemptionBenchmark b = new PreemptionBenchmark();
        b.fairSharing = fairSharing;
        b.buildWorld();
        long[] cpu = new long[calls];
        for (int i = 0; i < calls; i++) {
            long start = THREADS.getCurrentThreadCpuTime();
            b.preemptionDecision();
            cpu[i] = THREADS.getCurrentThreadCpuTime() - start;
            b.restoreVictims();
        }
        long[] measured = Arrays.copyOfRange(cpu, warmup, calls);
        Arrays.sort(measured);
        System.out.printf("preemption decision, fairSharing=%s, %d calls: cpu p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
                fairSharing, measured.length, ms(measured[measured.length / 2]), ms(measured[(int) (measured.length * 0.9)]),
                ms(measured[(int) (measured.length * 0.99)]), ms(measured[measured.length - 1]));
        return measured;
    }

    /** Times whole admission cycles; returns the decisions per second of CPU time over the cycles after the warm-up. */
    static double admissionCycle(boolean fairSharing, int cycles, int warmup) {
        long measuredDecisions = 0;
        long measuredCpu = 0;
        for (int i = 0; i < cycles; i++) {
            SchedulerState state = ScaleWorld.admissionCycleWorld(new FakeClock(CoreFixtures.T0), fairSharing);
            long cpuStart = THREADS.getCurrentThreadCpuTime();
            long wallStart = System.nanoTime();
            CycleResult r = AdmissionCycle.run(state);
            long cpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
            long wall = System.nanoTime() - wallStart;
            int decisions = r.admitted().size() + r.pending().size();
            System.out.printf("admission cycle%s, fairSharing=%s: %d decisions (%d admitted), cpu %.0f ms (%.0f decisions/s), wall %.0f ms (%.0f decisions/s)%n",
                    i < warmup ? " (warm-up)" : "", fairSharing, decisions, r.admitted().size(), ms(cpu),
                    decisions / (cpu / 1e9), ms(wall), decisions / (wall / 1e9));
            if (i >= warmup) {
                measuredDecisions += decisions;
                measuredCpu += cpu;
            }
        }
        return measuredDecisions / (measuredCpu / 1e9);
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
