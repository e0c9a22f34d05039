package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cycle assigns flavors once to a backlog of alike workloads (same pod sets, queue and priority) while usage is
 * unchanged. This test holds it to deciding exactly what it decides when every workload is assigned on its own:
 * random cohorts, policies and backlogs are run twice, once as generated and once with every pod set renamed after
 * its workload (so no two workloads are alike), through several cycles with finishes and committed evictions in
 * between, and every admission, preemption and pending decision (reason and message, pod set names aside) must be
 * the same.
 */
class AlikeWorkloadsTest {

    private static final int WORLDS = 300;
    private static final int CYCLES = 6;

    @Test
    void decisionsAreTheSameAsWhenEveryWorkloadIsAssignedOnItsOwn() {
        for (long seed = 1; seed <= WORLDS; seed++) {
            List<String> alike = run(seed, false);
            List<String> distinct = run(seed, true);
            assertThat(alike).as("world " + seed).isEqualTo(distinct);
        }
    }

    /** The decisions of every cycle of world {@code seed}, one line each. */
    private static List<String> run(long seed, boolean renamePodSets) {
        Random random = new Random(seed);
        FakeClock clock = new FakeClock(CoreFixtures.T0);
        SchedulerState state = new SchedulerState(clock, random.nextBoolean()
                ? SchedulerSettings.FAIR_SHARING : SchedulerSettings.CLASSICAL);
        state.applyResourceFlavor(CoreFixtures.flavor("a"));
        state.applyResourceFlavor(CoreFixtures.flavor("b"));
        int queues = 1 + random.nextInt(3);
        for (int q = 0; q < queues; q++) {
            CoreFixtures.ClusterQueueBuilder cq = CoreFixtures.clusterQueue("cq-" + q).cohort("cohort")
                    .strategy(random.nextInt(4) == 0 ? QueueingStrategy.StrictFIFO : QueueingStrategy.BestEffortFIFO)
                    .preemption(new PreemptionPolicy(pick(random, WithinClusterQueuePolicy.values()),
                            pick(random, ReclaimWithinCohortPolicy.values()), BorrowWithinCohortPolicy.Never, null))
                    .quota("a", "cpu", String.valueOf(2 + random.nextInt(6)),
                            random.nextBoolean() ? String.valueOf(random.nextInt(4)) : null, null);
            if (random.nextBoolean()) {
                cq.quota("b", "cpu", String.valueOf(1 + random.nextInt(4)));
            }
            state.applyClusterQueue(cq.build());
            state.applyLocalQueue(new LocalQueueSpec("default", "lq-" + q, "cq-" + q, StopPolicy.None));
        }
        List<String> admittedSoFar = new ArrayList<>();
        int serial = 0;
        List<String> lines = new ArrayList<>();
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            int arrivals = random.nextInt(12);
            for (int i = 0; i < arrivals; i++) {
                String uid = "w" + serial++;
                int cpu = 1 + random.nextInt(3);
                int count = 1 + random.nextInt(2);
                String podSet = renamePodSets ? "main-" + uid : "main";
                state.addPending(new Workload(uid, "default", uid, "lq-" + random.nextInt(queues), random.nextInt(3),
                        random.nextInt(3) == 0 ? CoreFixtures.T0 : clock.instant().plusSeconds(i),
                        List.of(new PodSet(podSet, count, random.nextInt(4) == 0 ? 1 : count, Map.of("cpu", cpu * 1000L),
                                Map.of(), List.of(), List.of()))));
            }
            CycleResult result = AdmissionCycle.run(state);
            lines.add(describe(result));
            result.admitted().forEach(a -> admittedSoFar.add(a.workload().uid()));
            result.preempted().forEach(p -> state.evictionCommitted(p.workload().uid()));
            for (String uid : List.copyOf(admittedSoFar)) {
                if (random.nextInt(3) == 0 && state.admittedRegistry().find(uid).isPresent()) {
                    state.workloadFinished(uid);
                    admittedSoFar.remove(uid);
                }
            }
            clock.advance(Duration.ofMinutes(1));
        }
        return lines;
    }

    private static String describe(CycleResult r) {
        Set<String> admitted = r.admitted().stream().map(a -> a.workload().uid() + "@" + a.admission().clusterQueue()
                + a.admission().podSetAssignments().stream().map(p -> p.count() + ":" + new TreeMap<>(p.flavors()))
                .toList()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> preempted = r.preempted().stream().map(p -> p.workload().uid() + "<-" + p.preemptor().uid() + ":"
                + p.reason()).collect(Collectors.toCollection(TreeSet::new));
        Set<String> pending = r.pending().stream().map(p -> p.workload().uid() + ":" + p.reason() + ":"
                + p.inadmissible() + ":" + p.message().replaceAll("pod set main-w[0-9]+", "pod set main"))
                .collect(Collectors.toCollection(TreeSet::new));
        return "admitted " + admitted + " preempted " + preempted + " pending " + pending;
    }

    private static <T> T pick(Random random, T[] values) {
        return values[random.nextInt(values.length)];
    }
}
