package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.AdmissionMode;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.StopPolicy;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission fair sharing over long simulated runs: N LocalQueues of one ClusterQueue, equal weights, identical
 * demand (each always has workloads of the same shape and runtime waiting), but arrival order and priorities that
 * favour some of them. The admitted usage of every LocalQueue stays close to an equal share.
 * <p>
 * The bound: over three simulated days, every LocalQueue's admitted usage (cpu-time of the workloads it got
 * admitted) is within the ClusterQueue's quota in workloads plus one of the equal share, when the usage half-life is
 * at least {@value #HALF_LIFE_MULTIPLE_MIN} runtimes and usage is sampled at least every
 * {@value #FINE_SAMPLING_PERCENT_MAX}% of a runtime. The quota: a LocalQueue that has been idle may take every free
 * slot in one cycle, since the entry penalty of one sampling interval stays small; plus one, as a workload is the
 * unit of admission. Sampled more rarely, the bound is twice that: between two samples a LocalQueue is charged only
 * the entry penalties of what it got admitted, and lockstep workloads whose slots free just after a sample can give
 * one LocalQueue another quota's worth before the sample sees it (found at 17% to 23% of a runtime: up to 7.6
 * workloads at a quota of 4). That lead is a fluctuation, not a drift: in those runs it stayed between 2 and 7
 * workloads over 9 and 27 simulated days. Shorter half-lives forget fast enough that lockstep workloads can settle
 * into a cycle where one LocalQueue is always admitted in bursts while its usage is old: with a half-life of four
 * runtimes, shares drifted by up to 30% in three days.
 */
class AdmissionFairSharingProperties {

    static final int HALF_LIFE_MULTIPLE_MIN = 30;
    static final int FINE_SAMPLING_PERCENT_MAX = 15;
    private static final Duration RUN = Duration.ofDays(3);
    private static final Duration STEP = Duration.ofMinutes(1);

    /** Every workload of a run takes as long: 10 to 90 minutes, from the run's seed. */
    static Duration runtime(long seed) {
        return runtime(new Random(seed));
    }

    private static Duration runtime(Random random) {
        return Duration.ofMinutes(10 + random.nextInt(81));
    }

    /** One simulated ClusterQueue with its LocalQueues, their backlogs and the workloads running. */
    private static final class Run {
        final FakeClock clock = new FakeClock(CoreFixtures.T0);
        final SchedulerState state;
        final int queues;
        final Duration runtime;
        final int[] priority;
        /** LocalQueue i's workloads are queued in a block starting here: FIFO would serve the earliest block first. */
        final Instant[] blockStart;
        final int[] submitted;
        final long[] admittedCpuMinutes;
        final Map<String, Instant> finishAt = new HashMap<>();

        Run(long seed, int queues, int slots, AdmissionFairSharing settings) {
            Random random = new Random(seed);
            this.queues = queues;
            this.runtime = runtime(random);
            this.priority = new int[queues];
            this.blockStart = new Instant[queues];
            this.submitted = new int[queues];
            this.admittedCpuMinutes = new long[queues];
            state = new SchedulerState(clock, SchedulerSettings.CLASSICAL.withAdmissionFairSharing(settings));
            state.applyResourceFlavor(CoreFixtures.flavor("default"));
            state.applyClusterQueue(clusterQueue("cq").quota("default", "cpu", String.valueOf(slots))
                    .admissionMode(settings == null ? null : AdmissionMode.UsageBasedAdmissionFairSharing).build());
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < queues; i++) {
                state.applyLocalQueue(new LocalQueueSpec("default", "lq" + i, "cq", StopPolicy.None));
                priority[i] = random.nextInt(3);
                order.add(i);
            }
            Collections.shuffle(order, random);
            for (int i = 0; i < queues; i++) {
                blockStart[order.get(i)] = CoreFixtures.T0.minus(Duration.ofDays(30 - i));
            }
            for (int i = 0; i < queues; i++) {
                topUp(i, slots + 1);
            }
        }

        /** Keeps {@code backlog} workloads of LocalQueue i waiting: the visible front of an endless block. */
        void topUp(int i, int backlog) {
            long waiting = state.queueManager().pendingInOrder("cq").stream().filter(w -> w.localQueue().equals("lq" + i)).count();
            for (long k = waiting; k < backlog; k++) {
                int n = submitted[i]++;
                state.addPending(workload("lq" + i + "-" + n).queue("lq" + i).priority(priority[i])
                        .queuedAt(blockStart[i].plusSeconds(n)).request("cpu", "1").build());
            }
        }

        void simulate(int slots) {
            for (Instant end = clock.instant().plus(RUN); clock.instant().isBefore(end); clock.advance(STEP)) {
                List<String> done = finishAt.entrySet().stream().filter(e -> !e.getValue().isAfter(clock.instant()))
                        .map(Map.Entry::getKey).sorted().toList();
                done.forEach(uid -> {
                    state.workloadFinished(uid);
                    finishAt.remove(uid);
                });
                for (Decision.Admit a : AdmissionCycle.run(state).admitted()) {
                    finishAt.put(a.workload().uid(), clock.instant().plus(runtime));
                    admittedCpuMinutes[Integer.parseInt(a.workload().localQueue().substring(2))] += runtime.toMinutes();
                }
                for (int i = 0; i < queues; i++) {
                    topUp(i, slots + 1);
                }
            }
        }

        /** The largest distance of a LocalQueue's admitted usage from the equal share, in workloads. */
        double largestDeviationInWorkloads() {
            double mean = 0;
            for (long m : admittedCpuMinutes) {
                mean += m;
            }
            mean /= queues;
            double worst = 0;
            for (long m : admittedCpuMinutes) {
                worst = Math.max(worst, Math.abs(m - mean) / runtime.toMinutes());
            }
            return worst;
        }

        long admittedWorkloads() {
            long total = 0;
            for (long m : admittedCpuMinutes) {
                total += m / runtime.toMinutes();
            }
            return total;
        }
    }

    @Property(tries = 50)
    void equalWeightsAndDemandGetEqualSharesOverALongRun(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                                         @ForAll @IntRange(min = 2, max = 5) int queues,
                                                         @ForAll @IntRange(min = 1, max = 4) int slots,
                                                         @ForAll @IntRange(min = HALF_LIFE_MULTIPLE_MIN, max = 200)
                                                         int halfLifeMultiple,
                                                         @ForAll @IntRange(min = 1, max = 25) int samplingPercent) {
        Duration runtime = runtime(seed);
        AdmissionFairSharing settings = new AdmissionFairSharing(runtime.multipliedBy(halfLifeMultiple),
                Duration.ofMinutes(Math.max(1, runtime.toMinutes() * samplingPercent / 100)), Map.of());
        Run run = new Run(seed, queues, slots, settings);

        run.simulate(slots);

        double deviation = run.largestDeviationInWorkloads();
        Statistics.label("largest deviation, whole workloads").collect((int) Math.ceil(deviation));
        assertThat(run.admittedWorkloads()).as("the quota was in use the whole run")
                .isGreaterThanOrEqualTo(slots * (RUN.toMinutes() / runtime.toMinutes() - 1));
        assertThat(deviation).as("admitted usage per LocalQueue %s, %s min per workload",
                Arrays.toString(run.admittedCpuMinutes), runtime.toMinutes())
                .isLessThanOrEqualTo(bound(slots, samplingPercent));
    }

    /** A quota's worth of workloads plus one, twice that when usage is sampled rarely (see the class's comment). */
    private static int bound(int slots, int samplingPercent) {
        return samplingPercent <= FINE_SAMPLING_PERCENT_MAX ? slots + 1 : 2 * (slots + 1);
    }

    /** The widest lead found with rare samples: five LocalQueues, a quota of 4, 34-minute runs sampled every 7. */
    @Example
    void rareSamplesLeaveALeadWithinTwiceTheBound() {
        long seed = 96_787;
        Duration runtime = runtime(seed);
        int slots = 4;
        int samplingPercent = 22;
        AdmissionFairSharing settings = new AdmissionFairSharing(runtime.multipliedBy(31),
                Duration.ofMinutes(runtime.toMinutes() * samplingPercent / 100), Map.of());
        Run run = new Run(seed, 5, slots, settings);

        run.simulate(slots);

        assertThat(run.largestDeviationInWorkloads()).as("more than a quota plus one: the rare samples' lead")
                .isGreaterThan(slots + 1).isLessThanOrEqualTo(bound(slots, samplingPercent));
    }

    /** The same world without admission fair sharing: the earliest block takes everything, so the bound means something. */
    @Example
    void withoutAdmissionFairSharingTheEarliestBlockTakesEverything() {
        int slots = 2;
        Run run = new Run(7, 3, slots, null);

        run.simulate(slots);

        assertThat(run.largestDeviationInWorkloads()).as("ten times the bound").isGreaterThan(10 * (slots + 1));
        assertThat(Arrays.stream(run.admittedCpuMinutes).filter(m -> m > 0).count()).isEqualTo(1);
    }
}
