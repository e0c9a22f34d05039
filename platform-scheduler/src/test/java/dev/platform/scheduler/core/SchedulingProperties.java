package dev.platform.scheduler.core;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.BorrowWithinCohortPolicy;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorFungibility;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.FungibilityPolicy;
import dev.platform.scheduler.core.model.FungibilityPreference;
import dev.platform.scheduler.core.model.LabelSelector;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PodSet;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.QueueingStrategy;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.preemption.PreemptionPolicies;
import dev.platform.scheduler.core.preemption.PreemptionRequest;
import dev.platform.scheduler.core.preemption.PreemptionTarget;
import dev.platform.scheduler.core.preemption.Preemptor;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.Revert;
import dev.platform.scheduler.core.quota.Snapshot;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Invariants of the core over random worlds: one cohort of up to four ClusterQueues with random quotas, limits
 * and policies, and several cycles of random arrivals, finishes and completed evictions. Each try is generated
 * from one seed, so a failure is reproduced by its seed.
 */
class SchedulingProperties {

    private static final List<String> FLAVORS = List.of("default", "spot");

    /** A random world and the script of events run against it. */
    private static final class World {
        final SchedulerState state;
        final FakeClock clock = new FakeClock(CoreFixtures.T0);
        final Map<String, ClusterQueueSpec> queues = new HashMap<>();
        final Random random;
        int next;

        World(long seed, boolean fairSharing) {
            random = new Random(seed);
            state = new SchedulerState(clock, fairSharing ? SchedulerSettings.FAIR_SHARING : SchedulerSettings.CLASSICAL);
            FLAVORS.forEach(f -> state.applyResourceFlavor(CoreFixtures.flavor(f)));
            int n = 1 + random.nextInt(4);
            for (int i = 0; i < n; i++) {
                List<FlavorQuotas> flavors = new ArrayList<>();
                for (String f : FLAVORS) {
                    long nominal = random.nextInt(7) * 1000L;
                    Long borrowing = random.nextBoolean() ? null : random.nextInt(4) * 1000L;
                    Long lending = random.nextBoolean() ? null : (long) random.nextInt((int) nominal / 1000 + 1) * 1000L;
                    flavors.add(new FlavorQuotas(f, List.of(new ResourceQuota("cpu", nominal, borrowing, lending))));
                }
                PreemptionPolicy preemption = new PreemptionPolicy(
                        pick(WithinClusterQueuePolicy.values()), pick(ReclaimWithinCohortPolicy.values()),
                        pick(BorrowWithinCohortPolicy.values()), random.nextBoolean() ? null : random.nextInt(3) - 1);
                FlavorFungibility fungibility = new FlavorFungibility(pick(FungibilityPolicy.values()),
                        pick(FungibilityPolicy.values()), pick(FungibilityPreference.values()));
                ClusterQueueSpec cq = new ClusterQueueSpec("cq" + i, "all",
                        List.of(new ResourceGroup(List.of("cpu"), flavors)), pick(QueueingStrategy.values()),
                        LabelSelector.EVERYTHING, fungibility, preemption, 1 + random.nextInt(3), StopPolicy.None);
                queues.put(cq.name(), cq);
                state.applyClusterQueue(cq);
                state.applyLocalQueue(new LocalQueueSpec("default", "lq" + i, cq.name(), StopPolicy.None));
            }
        }

        <T> T pick(T[] values) {
            return values[random.nextInt(values.length)];
        }

        void arrivals() {
            int k = 1 + random.nextInt(6);
            for (int i = 0; i < k; i++) {
                state.addPending(CoreFixtures.workload("w" + next++)
                        .queue("lq" + random.nextInt(queues.size()))
                        .priority(random.nextInt(5) - 2)
                        .queuedAt(clock.instant())
                        .count(1 + random.nextInt(2))
                        .request("cpu", String.valueOf(1 + random.nextInt(4)))
                        .build());
            }
        }

        void departures(CycleResult result) {
            result.preempted().forEach(p -> state.evictionCompleted(p.workload().uid()));
            for (AdmittedWorkload a : state.admittedRegistry().all()) {
                if (random.nextInt(10) < 3) {
                    state.workloadFinished(a.uid());
                }
            }
            clock.advance(Duration.ofMinutes(1));
        }
    }

    @Property(tries = 300)
    void quotasAndPoliciesHoldOverManyCycles(@ForAll @LongRange(min = 0, max = 1_000_000) long seed,
                                             @ForAll boolean fairSharing) {
        World world = new World(seed, fairSharing);
        for (int cycle = 0; cycle < 6; cycle++) {
            world.arrivals();
            CycleResult result = AdmissionCycle.run(world.state);
            Statistics.label("preemptions per cycle").collect(Math.min(result.preempted().size(), 2));
            assertQuotasHold(world);
            assertVictimsAllowed(world, result, fairSharing);
            world.departures(result);
        }
    }

    /**
     * Usage within nominal + borrowingLimit per queue; the cohort lends no more than its lendable quota. Counted
     * over workloads not being evicted: as in Kueue's fits(), the quota of a victim is free for the rest of the
     * cycle in which it was chosen (for its preemptor first), while its eviction runs.
     */
    private static void assertQuotasHold(World world) {
        Map<String, Map<FlavorResource, Long>> usageByQueue = new HashMap<>();
        for (AdmittedWorkload a : world.state.admittedRegistry().all()) {
            if (!a.evicted()) {
                a.usage().forEach((fr, v) -> usageByQueue.computeIfAbsent(a.clusterQueue(), k -> new HashMap<>())
                        .merge(fr, v, Long::sum));
            }
        }
        for (String flavor : FLAVORS) {
            FlavorResource fr = new FlavorResource(flavor, "cpu");
            long borrowed = 0;
            long lendable = 0;
            for (ClusterQueueSpec cq : world.queues.values()) {
                ResourceQuota q = cq.resourceGroups().get(0).flavors().get(FLAVORS.indexOf(flavor)).resources().get(0);
                long usage = usageByQueue.getOrDefault(cq.name(), Map.of()).getOrDefault(fr, 0L);
                if (q.borrowingLimit() != null) {
                    assertThat(usage).as("%s usage of %s within nominal + borrowingLimit", cq.name(), fr)
                            .isLessThanOrEqualTo(q.nominalQuota() + q.borrowingLimit());
                }
                long guaranteed = q.lendingLimit() == null ? 0 : q.nominalQuota() - q.lendingLimit();
                borrowed += Math.max(0, usage - guaranteed);
                lendable += q.nominalQuota() - guaranteed;
            }
            assertThat(borrowed).as("cohort hands out at most its lendable %s (lendingLimit holds)", fr)
                    .isLessThanOrEqualTo(lendable);
        }
    }

    private static void assertVictimsAllowed(World world, CycleResult result, boolean fairSharing) {
        for (Decision.Preempt p : result.preempted()) {
            ClusterQueueSpec cq = world.queues.get(p.preemptorClusterQueue());
            AdmittedWorkload victim = world.state.admittedRegistry().find(p.workload().uid()).orElseThrow();
            assertThat(PreemptionPolicies.allows(cq, p.preemptor(), victim))
                    .as("victim %s allowed by %s's policies", p.workload(), cq.name()).isTrue();
            assertThat(p.reason() == PreemptionReason.InClusterQueue)
                    .as("InClusterQueue exactly for victims of the own queue")
                    .isEqualTo(p.victimClusterQueue().equals(p.preemptorClusterQueue()));
            if (!fairSharing) {
                assertThat(p.reason()).isNotEqualTo(PreemptionReason.InCohortFairSharing);
            }
        }
    }

    /**
     * The victim set is minimal: with every victim gone the preemptor fits, and with any single victim kept it no
     * longer fits within its nominal quota (so neither with nor without borrowing, whichever attempt found it).
     */
    @Property(tries = 300)
    void victimSetIsMinimal(@ForAll @LongRange(min = 0, max = 1_000_000) long seed, @ForAll boolean fairSharing) {
        World world = new World(seed, fairSharing);
        for (int cycle = 0; cycle < 3; cycle++) {
            world.arrivals();
            world.departures(AdmissionCycle.run(world.state));
        }
        world.arrivals();
        Snapshot snapshot = world.state.snapshot();
        Preemptor preemptor = new Preemptor(fairSharing);
        for (ClusterQueueSpec cq : world.queues.values()) {
            Workload head = world.state.queueManager().queue(cq.name()).head();
            if (head == null) {
                continue;
            }
            Assignment a = new FlavorAssigner(head, cq, snapshot, preemptor, fairSharing)
                    .assign(head.podSets().stream().mapToInt(PodSet::count).toArray());
            if (a.mode() != Assignment.Mode.PREEMPT) {
                continue;
            }
            PreemptionRequest request = new PreemptionRequest(head, cq.name(), a.usage(), a.needPreemption());
            List<PreemptionTarget> targets = preemptor.targets(request, snapshot);
            List<AdmittedWorkload> victims = targets.stream().map(PreemptionTarget::victim).toList();
            Statistics.label("victims per preemptor").collect(Math.min(victims.size(), 3));
            QuotaNode node = snapshot.node(cq.name());
            try (Revert ignored = snapshot.simulateRemoval(victims)) {
                if (!victims.isEmpty()) {
                    assertThat(fits(node, a.usage(), true)).as("fits once all victims are gone").isTrue();
                }
            }
            for (AdmittedWorkload kept : victims) {
                List<AdmittedWorkload> others = victims.stream().filter(v -> v != kept).toList();
                try (Revert ignored = snapshot.simulateRemoval(others)) {
                    assertThat(fits(node, a.usage(), false)).as("still needs victim %s", kept.workload()).isFalse();
                }
            }
        }
    }

    private static boolean fits(QuotaNode node, Map<FlavorResource, Long> usage, boolean allowBorrowing) {
        for (Map.Entry<FlavorResource, Long> e : usage.entrySet()) {
            if (!allowBorrowing && node.borrowingWith(e.getKey(), e.getValue())) {
                return false;
            }
            if (node.available(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Property(tries = 100)
    void sameInputSameDecisions(@ForAll @LongRange(min = 0, max = 1_000_000) long seed, @ForAll boolean fairSharing) {
        World first = new World(seed, fairSharing);
        World second = new World(seed, fairSharing);
        for (int cycle = 0; cycle < 5; cycle++) {
            first.arrivals();
            second.arrivals();
            CycleResult a = AdmissionCycle.run(first.state);
            CycleResult b = AdmissionCycle.run(second.state);
            assertThat(b).isEqualTo(a);
            first.departures(a);
            second.departures(b);
        }
    }
}
