package dev.platform.scheduler.scheduling;

import dev.platform.api.agent.GkeLabels;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.cluster.NodePoolPlacement;
import dev.platform.scheduler.core.AdmissionCycle;
import dev.platform.scheduler.core.CoreFixtures;
import dev.platform.scheduler.core.CycleResult;
import dev.platform.scheduler.core.Decision;
import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.lifecycle.WaitForPodsReady;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.PreemptionPolicy;
import dev.platform.scheduler.core.model.StopPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.core.placement.PoolKey;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.core.placement.SliceRequest;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.platform.scheduler.core.CoreFixtures.clusterQueue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The loop's cache driven the way the loop drives it, by rows of an in-memory change feed and by
 * the outcomes a writer would report, without PostgreSQL: it stays in step with the core through
 * admissions that land or lose a race, parked admissions, evictions and ends.
 */
class SchedulerCacheTest {

    private static final String TPU = GkeLabels.TPU_CHIPS;

    private final FakeClock clock = new FakeClock(CoreFixtures.T0);
    private final Feed feed = new Feed();
    private final List<String> admitted = new ArrayList<>();
    private final List<String> startedRunning = new ArrayList<>();
    private final List<String> finished = new ArrayList<>();
    private SchedulerCache cache;

    @BeforeEach
    void queueWithEightChips() {
        cache = new SchedulerCache(clock, SchedulerSettings.CLASSICAL, WaitForPodsReady.KUEUE_DEFAULTS, new SchedulerCache.Observer() {
            @Override
            public void submitted(Workload workload, WorkloadRow row) {
            }

            @Override
            public void admitted(WorkloadRow row) {
                admitted.add(row.name() + " at " + row.admittedAt());
            }

            @Override
            public void startedRunning(WorkloadRow row) {
                startedRunning.add(row.name());
            }

            @Override
            public void finished(Workload workload, WorkloadRow row) {
                finished.add(row.name());
            }
        });
        cache.state().applyResourceFlavor(CoreFixtures.flavor("v5p"));
        cache.state().applyClusterQueue(clusterQueue("cq").quota("v5p", TPU, "8")
                .preemption(new PreemptionPolicy(WithinClusterQueuePolicy.LowerPriority, null, null, null)).build());
        cache.state().applyLocalQueue(new LocalQueueSpec("team", "lq", "cq", StopPolicy.None));
    }

    @Test
    void anAdmissionThatLandsIsKeptAndItsOwnRowFromTheFeedChangesNothing() {
        cache.reconcile(feed.pending("train", 0, 1, 4));

        CycleResult cycle = AdmissionCycle.run(cache.state());
        cache.committed(cycle, feed.landed(cycle));
        cache.reconcile(feed.admittedAsDecided("train", cycle));

        assertThat(cycle.admitted()).extracting(a -> a.workload().name()).containsExactly("train");
        assertThat(cache.state().admittedRegistry().find(feed.uid("train"))).isPresent();
        assertThat(cache.versions()).containsEntry(feed.uid("train"), feed.version("train"));
        assertThat(AdmissionCycle.run(cache.state()).isEmpty()).isTrue();
        assertThat(cache.state().admittedRegistry().usage("cq")).containsValue(4_000L);
    }

    @Test
    void anAdmissionThatLostARaceIsForgottenAndTheRowTheFeedBringsDecidesAgain() {
        cache.reconcile(feed.pending("train", 0, 1, 4));
        CycleResult cycle = AdmissionCycle.run(cache.state());

        cache.committed(cycle, new CycleDecisions.Outcome(Map.of(), cycle.admitted(), List.of(), clock.instant()));
        boolean heldAfterRace = cache.state().admittedRegistry().find(feed.uid("train")).isPresent();
        cache.reconcile(feed.pending("train", 0, 1, 8));
        CycleResult again = AdmissionCycle.run(cache.state());

        assertThat(heldAfterRace).isFalse();
        assertThat(cache.versions()).containsEntry(feed.uid("train"), feed.version("train"));
        assertThat(again.admitted()).extracting(a -> a.admission().podSetAssignments().get(0).resourceUsage().get(TPU))
                .containsExactly(8_000L);
    }

    @Test
    void anAdmissionWithoutAFreeNodePoolIsParkedUntilTheInventoryChanges() {
        cache.placement().replaceInventory(List.of(pool("a")));
        AdmissionPlacement placement = new AdmissionPlacement(cache, new FlavorInjections(Map.of(), Map.of()), uids -> java.util.Set.of());
        cache.reconcile(feed.pending("two-slices", 0, 2, 4));

        AdmissionPlacement.Placed parked = placement.place(AdmissionCycle.run(cache.state()));
        Map<String, String> parkedQueues = cache.parkedQueues();
        int inadmissible = cache.pendingCounts().get("cq").inadmissible();
        cache.placement().replaceInventory(List.of(pool("a"), pool("b")));
        cache.inventoryChanged();
        AdmissionPlacement.Placed placed = placement.place(AdmissionCycle.run(cache.state()));

        assertThat(parked.result().admitted()).isEmpty();
        assertThat(parked.result().pending()).extracting(Decision.Pending::reason)
                .containsExactly(PendingReason.WaitingForNodePool);
        assertThat(cache.state().admittedRegistry().usage("cq")).containsValue(8_000L);
        assertThat(parkedQueues).containsExactly(Map.entry(feed.uid("two-slices"), "cq"));
        assertThat(inadmissible).isEqualTo(1);
        assertThat(placed.placements().get(feed.uid("two-slices")).placement().allPools())
                .containsExactly(new PoolKey("c1", "a"), new PoolKey("c1", "b"));
        assertThat(cache.placement().slices().poolsOf(feed.uid("two-slices"))).containsExactlyInAnyOrder(new PoolKey("c1", "a"), new PoolKey("c1", "b"));
        assertThat(cache.parkedQueues()).isEmpty();
    }

    @Test
    void aCommittedPreemptionRequeuesTheVictimAndARejectedOneForgetsIt() {
        admit("low", 0, 8);
        cache.reconcile(feed.pending("high", 10, 1, 8));

        CycleResult preempting = AdmissionCycle.run(cache.state());
        cache.committed(preempting, new CycleDecisions.Outcome(Map.of(feed.uid("low"), feed.version("low") + 1),
                List.of(), List.of(), clock.instant()));

        assertThat(preempting.preempted()).extracting(p -> p.workload().name()).containsExactly("low");
        assertThat(cache.state().queueManager().pendingInOrder("cq")).extracting(Workload::name).contains("low");
        assertThat(cache.state().admittedRegistry().find(feed.uid("low"))).isEmpty();
    }

    @Test
    void anEvictionThatLostARaceIsForgottenUntilTheFeedBringsTheRow() {
        admit("low", 0, 8);
        cache.reconcile(feed.pending("high", 10, 1, 8));

        CycleResult preempting = AdmissionCycle.run(cache.state());
        cache.committed(preempting, new CycleDecisions.Outcome(Map.of(), List.of(), List.of(feed.uid("low")),
                clock.instant()));
        boolean knownAfterRace = cache.versions().containsKey(feed.uid("low"));
        cache.reconcile(feed.finished("low"));

        assertThat(preempting.preempted()).extracting(p -> p.workload().name()).containsExactly("low");
        assertThat(knownAfterRace).isFalse();
        assertThat(cache.state().queueManager().pendingInOrder("cq")).extracting(Workload::name).containsExactly("high");
    }

    @Test
    void theObserverHearsOfAStartAndAnEndOnceEach() {
        admit("train", 0, 4);

        cache.reconcile(feed.running("train"));
        cache.reconcile(feed.running("train"));
        cache.reconcile(feed.finished("train"));

        assertThat(startedRunning).containsExactly("train");
        assertThat(finished).containsExactly("train");
        assertThat(cache.row(feed.uid("train"))).isNull();
        assertThat(cache.state().admittedRegistry().usage("cq").values()).allMatch(used -> used == 0L);
    }

    @Test
    void theObserverHearsOfEachAdmissionOnceWithItsTime() {
        admit("train", 0, 4);
        cache.reconcile(feed.running("train"));
        cache.reconcile(feed.pending("train", 0, 1, 4));
        clock.advance(Duration.ofMinutes(5));
        CycleResult again = AdmissionCycle.run(cache.state());
        cache.committed(again, feed.landed(again));
        cache.reconcile(feed.admittedAsDecided("train", again));
        cache.reconcile(feed.running("train"));

        assertThat(admitted).containsExactly("train at " + CoreFixtures.T0,
                "train at " + CoreFixtures.T0.plus(Duration.ofMinutes(5)));
    }

    @Test
    void aWorkloadWithoutAQueueNameWaitsForPlacementByPriorityAndNeverReachesTheCore() {
        cache.reconcile(feed.withoutQueue("adhoc", WorkloadState.Pending));

        boolean waiting = cache.priorityOnly().waiting().contains(feed.uid("adhoc"));
        cache.reconcile(feed.withoutQueue("adhoc", WorkloadState.Admitted));

        assertThat(waiting).isTrue();
        assertThat(cache.priorityOnly().waiting()).isEmpty();
        assertThat(cache.state().workloadCount()).isZero();
    }

    @Test
    void anAdmittedWorkloadsPriorityChangeCountsWhenItsPoolsAreSoughtByPreempting() {
        cache.placement().replaceInventory(List.of(pool("a")));
        cache.reconcile(feed.pending("train", 0, 1, 4));
        CycleResult cycle = new AdmissionPlacement(cache, new FlavorInjections(Map.of(), Map.of()), uids -> java.util.Set.of()).place(AdmissionCycle.run(cache.state())).result();
        cache.committed(cycle, feed.landed(cycle));
        cache.reconcile(feed.admittedAsDecided("train", cycle));

        cache.reconcile(feed.reprioritised("train", 20));
        Optional<SlicePlacement.Replacement> whileRaised = cache.placement().slices().placeByPreempting(onePool("urgent", 10));
        long generationWhileRaised = cache.placement().slices().generation();
        cache.reconcile(feed.reprioritised("train", 5));

        assertThat(whileRaised).isEmpty();
        assertThat(cache.placement().slices().generation()).as("a lowered holder may now be preempted")
                .isGreaterThan(generationWhileRaised);
        assertThat(cache.placement().slices().placeByPreempting(onePool("urgent", 10)).orElseThrow().victims())
                .extracting(SlicePlacement.Holder::workloadUid).containsExactly(feed.uid("train"));
    }

    @Test
    void aPriorityOnlyWorkloadsPriorityChangeCountsWhenItsPoolsAreSoughtByPreempting() {
        cache.placement().replaceInventory(List.of(pool("a")));
        cache.reconcile(feed.withoutQueue("adhoc", WorkloadState.Pending));
        WorkloadRow admitted = feed.withoutQueue("adhoc", WorkloadState.Admitted);
        cache.placement().slices().assign(NodePoolPlacement.holder(admitted),
                cache.placement().place(onePool("adhoc", 0)).orElseThrow());
        cache.reconcile(admitted);

        cache.reconcile(feed.reprioritised("adhoc", 20));

        assertThat(cache.placement().slices().placeByPreempting(onePool("urgent", 10))).isEmpty();
    }

    /** Pending, admitted as the core decides, and landed. */
    private void admit(String name, int priority, int chips) {
        cache.reconcile(feed.pending(name, priority, 1, chips));
        CycleResult cycle = AdmissionCycle.run(cache.state());
        cache.committed(cycle, feed.landed(cycle));
        cache.reconcile(feed.admittedAsDecided(name, cycle));
    }

    /** One exclusive slice that fits any of the test's pools. */
    private static SliceRequest onePool(String uid, int priority) {
        return new SliceRequest(uid, priority, List.of(new SliceRequest.PodSetSlices("workers", true, 1, 1, 4, Map.of())));
    }

    private static NodePool pool(String name) {
        return new NodePool("c1", name, Map.of(GkeLabels.NODE_POOL, name), 1, 4, NodePool.Health.Healthy);
    }

    /** An in-memory change feed: every row it hands out has the next version of its workload. */
    private final class Feed {

        private final Map<String, UUID> uids = new HashMap<>();
        private final Map<String, WorkloadRow> latest = new HashMap<>();
        private long changeSeq;

        String uid(String name) {
            return uids.computeIfAbsent(name, n -> UUID.nameUUIDFromBytes(n.getBytes())).toString();
        }

        long version(String name) {
            return latest.get(name).version();
        }

        /** {@code slices} exclusive one-node pools of {@code chips} chips each (0 chips: no quota needed). */
        WorkloadRow pending(String name, int priority, int slices, int chips) {
            PodSetSpec podSet = new PodSetSpec("workers", slices, null,
                    chips == 0 ? Map.of() : Map.of(TPU, Quantity.parse(Integer.toString(chips))), Map.of(),
                    List.of(), List.of(), slices, 1);
            return next(name, "lq", priority, WorkloadState.Pending, List.of(podSet), null, null);
        }

        WorkloadRow withoutQueue(String name, WorkloadState state) {
            PodSetSpec podSet = new PodSetSpec("workers", 1, null, Map.of(TPU, Quantity.parse("4")), Map.of(),
                    List.of(), List.of(), 1, 1);
            return next(name, null, 0, state, List.of(podSet), null, null);
        }

        /** The new version a writer reports for every admission of {@code cycle}. */
        CycleDecisions.Outcome landed(CycleResult cycle) {
            Map<String, Long> versions = new HashMap<>();
            cycle.admitted().forEach(a -> versions.put(a.workload().uid(), version(a.workload().name()) + 1));
            return new CycleDecisions.Outcome(versions, List.of(), List.of(), clock.instant());
        }

        /** The row the writer's admission of {@code name} in {@code cycle} leaves in the feed. */
        WorkloadRow admittedAsDecided(String name, CycleResult cycle) {
            Decision.Admit admit = cycle.admitted().stream().filter(a -> a.workload().name().equals(name))
                    .findFirst().orElseThrow();
            WorkloadRow before = latest.get(name);
            return next(name, before.queueName(), before.priority(), WorkloadState.Admitted, before.podSets(),
                    CoreMapping.admission(admit.admission(), Map.of()), null);
        }

        /** The row after a change of its priority-class label. */
        WorkloadRow reprioritised(String name, int priority) {
            WorkloadRow before = latest.get(name);
            return next(name, before.queueName(), priority, before.state(), before.podSets(), before.admission(), null);
        }

        WorkloadRow running(String name) {
            WorkloadRow before = latest.get(name);
            if (before.state() == WorkloadState.Running) {
                return before;
            }
            return next(name, before.queueName(), before.priority(), WorkloadState.Running, before.podSets(),
                    before.admission(), null);
        }

        WorkloadRow finished(String name) {
            WorkloadRow before = latest.get(name);
            clock.advance(Duration.ofMinutes(1));
            return next(name, before.queueName(), before.priority(), WorkloadState.Finished, before.podSets(),
                    before.admission(), clock.instant());
        }

        private WorkloadRow next(String name, String queue, int priority, WorkloadState state, List<PodSetSpec> podSets,
                                 StoredAdmission admission, Instant finishedAt) {
            WorkloadRow before = latest.get(name);
            long version = before == null ? 1 : before.version() + 1;
            // a new admission at the clock's time; a later row of the same admission keeps it
            Instant admittedAt = !state.holdsQuota() && finishedAt == null ? null
                    : before != null && before.admittedAt() != null ? before.admittedAt() : clock.instant();
            WorkloadRow row = new WorkloadRow(UUID.fromString(uid(name)), "team", name, "JobSet", queue,
                    queue == null ? null : "cq", null, priority, state, podSets, admission, null, null,
                    CoreFixtures.T0, CoreFixtures.T0, admittedAt, finishedAt, 0, version, ++changeSeq,
                    GkeLabels.NODE_POOL, null, null, null);
            latest.put(name, row);
            return row;
        }
    }
}
