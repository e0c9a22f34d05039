package dev.platform.scheduler.core.placement;

import dev.platform.scheduler.core.placement.SlicePlacement.Holder;
import dev.platform.scheduler.core.placement.SlicePlacement.Placement;
import dev.platform.scheduler.core.placement.SlicePlacement.Replacement;
import dev.platform.scheduler.core.placement.SlicePlacement.VictimOrder;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.model.UnsavedWork;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Whole-pool placement of TPU slices and the hotswap replacement search, on the seed's shapes. */
class SlicePlacementTest {

    private static final Map<String, String> V6E_4X4 = Map.of(
            "cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice", "cloud.google.com/gke-tpu-topology", "4x4");
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** A hotswap where no holder is protected. */
    private static final Predicate<Holder> ANY = h -> true;

    private SlicePlacement placement;

    @BeforeEach
    void fourV6ePools() {
        placement = new SlicePlacement();
        placement.replaceInventory(IntStream.range(0, 4).mapToObj(i -> pool("sim", "pool-" + i, NodePool.Health.Healthy))
                .toList());
    }

    @Test
    void twoSliceJobSetsTakeTwoWholePoolsEach() {
        Placement high = placement.place(jobSet("high", 2000000)).orElseThrow();
        placement.assign(holder("high", 2000000, 1), high);
        Placement low = placement.place(jobSet("low", 1000000)).orElseThrow();

        assertThat(high.cluster()).isEqualTo("sim");
        assertThat(high.poolsByPodSet()).containsEntry("slice", List.of(new PoolKey("sim", "pool-0"), new PoolKey("sim", "pool-1")));
        assertThat(low.allPools()).containsExactly(new PoolKey("sim", "pool-2"), new PoolKey("sim", "pool-3"));
    }

    @Test
    void noFreeHealthyPoolMeansNoPlacement() {
        placement.assign(holder("a", 1, 1), placement.place(jobSet("a", 1)).orElseThrow());
        placement.replaceInventory(List.of(pool("sim", "pool-0", NodePool.Health.Healthy),
                pool("sim", "pool-1", NodePool.Health.Healthy), pool("sim", "pool-2", NodePool.Health.Healthy),
                pool("sim", "pool-3", NodePool.Health.Unhealthy)));

        assertThat(placement.place(jobSet("b", 1))).isEmpty();
    }

    @Test
    void poolsOfAnotherTopologyDoNotFit() {
        SliceRequest twoByTwo = new SliceRequest("x", 1, List.of(new SliceRequest.PodSetSlices("slice", true, 1, 4, 16,
                Map.of("cloud.google.com/gke-tpu-topology", "2x2"))));

        assertThat(placement.place(twoByTwo)).isEmpty();
    }

    @Test
    void aSliceNeedsEnoughNodesAndChips() {
        SliceRequest tooBig = new SliceRequest("x", 1, List.of(new SliceRequest.PodSetSlices("slice", true, 1, 8, 32, V6E_4X4)));

        assertThat(placement.place(tooBig)).isEmpty();
    }

    @Test
    void hotswapPreemptsTheLowerPriorityJobSetAndKeepsTheHealthyPool() {
        placement.assign(holder("high", 2000000, 1), placement.place(jobSet("high", 2000000)).orElseThrow());
        placement.assign(holder("low", 1000000, 2), placement.place(jobSet("low", 1000000)).orElseThrow());
        markUnhealthy("pool-1");

        Replacement replacement = placement.replace(jobSet("high", 2000000), Set.of(new PoolKey("sim", "pool-1")), ANY, VictimOrder.KUEUE).orElseThrow();

        assertThat(replacement.victims()).extracting(Holder::workloadUid).containsExactly("low");
        assertThat(replacement.placement().allPools()).contains(new PoolKey("sim", "pool-0")).doesNotContain(new PoolKey("sim", "pool-1")).hasSize(2);
    }

    @Test
    void aFreePoolIsTakenBeforeAnyoneIsPreempted() {
        placement.replaceInventory(IntStream.range(0, 5).mapToObj(i -> pool("sim", "pool-" + i, NodePool.Health.Healthy))
                .toList());
        placement.assign(holder("high", 10, 1), placement.place(jobSet("high", 10)).orElseThrow());
        placement.assign(holder("low", 1, 2), placement.place(jobSet("low", 1)).orElseThrow());
        markUnhealthy5("pool-0");

        Replacement replacement = placement.replace(jobSet("high", 10), Set.of(new PoolKey("sim", "pool-0")), ANY, VictimOrder.KUEUE).orElseThrow();

        assertThat(replacement.victims()).isEmpty();
        assertThat(replacement.placement().allPools()).containsExactlyInAnyOrder(new PoolKey("sim", "pool-1"), new PoolKey("sim", "pool-4"));
    }

    @Test
    void equalPriorityIsNeverPreempted() {
        placement.assign(holder("a", 5, 1), placement.place(jobSet("a", 5)).orElseThrow());
        placement.assign(holder("b", 5, 2), placement.place(jobSet("b", 5)).orElseThrow());
        markUnhealthy("pool-0");

        assertThat(placement.replace(jobSet("a", 5), Set.of(new PoolKey("sim", "pool-0")), ANY, VictimOrder.KUEUE)).isEmpty();
    }

    @Test
    void victimsAreTheFewestInKueueOrderLowestPriorityThenMostRecentlyAdmitted() {
        highOnABrokenPoolAndThreeLowerHolders();

        Replacement replacement = placement.replace(jobSet("high", 100), Set.of(new PoolKey("sim", "pool-1")), ANY, VictimOrder.KUEUE).orElseThrow();

        assertThat(replacement.victims()).extracting(Holder::workloadUid).containsExactly("newer");
    }

    @Test
    void underLeastLostWorkTheHotswapTakesTheHolderThatLosesLeastAmongTheLowestPriority() {
        highOnABrokenPoolAndThreeLowerHolders();
        Instant now = T0.plus(Duration.ofHours(1));
        Map<String, UnsavedWork> unsaved = Map.of(
                "older", new UnsavedWork(16, now.minus(Duration.ofMinutes(1))),   // checkpointed a minute ago
                "newer", new UnsavedWork(16, T0.plusSeconds(3)),                  // never: its whole run
                "mid", new UnsavedWork(16, now));                                 // just now, but of higher priority
        VictimOrder leastLostWork = new VictimOrder(PreemptionOrder.LeastLostWork,
                h -> unsaved.get(h.workloadUid()).resourceSecondsAt(now));
        Set<PoolKey> broken = Set.of(new PoolKey("sim", "pool-1"));

        assertThat(placement.replace(jobSet("high", 100), broken, ANY, VictimOrder.KUEUE).orElseThrow().victims())
                .as("Kueue's order: the most recently admitted").extracting(Holder::workloadUid).containsExactly("newer");
        assertThat(placement.replace(jobSet("high", 100), broken, ANY, leastLostWork).orElseThrow().victims())
                .as("960 chip-seconds lost rather than 57,552").extracting(Holder::workloadUid).containsExactly("older");
    }

    @Test
    void aHolderTheSearchMayNotTakeIsPassedOverForTheNextInOrder() {
        highOnABrokenPoolAndThreeLowerHolders();

        Replacement replacement = placement.replace(jobSet("high", 100), Set.of(new PoolKey("sim", "pool-1")),
                h -> !h.workloadUid().equals("newer"), VictimOrder.KUEUE).orElseThrow();

        assertThat(replacement.victims()).extracting(Holder::workloadUid).containsExactly("older");
    }

    @Test
    void twoBrokenPoolsNeedTwoReplacements() {
        placement.assign(holder("high", 10, 1), placement.place(jobSet("high", 10)).orElseThrow());
        placement.assign(holder("low", 1, 2), placement.place(jobSet("low", 1)).orElseThrow());
        markUnhealthy("pool-0", "pool-1");

        Replacement replacement = placement.replace(jobSet("high", 10), Set.of(new PoolKey("sim", "pool-0"), new PoolKey("sim", "pool-1")), ANY, VictimOrder.KUEUE).orElseThrow();

        assertThat(replacement.victims()).extracting(Holder::workloadUid).containsExactly("low");
        assertThat(replacement.placement().allPools()).containsExactlyInAnyOrder(new PoolKey("sim", "pool-2"), new PoolKey("sim", "pool-3"));
    }

    @Test
    void aWorkloadWithoutExclusiveSlicesGoesToAClusterWithAFittingPool() {
        SliceRequest shared = new SliceRequest("cpu-job", 1,
                List.of(new SliceRequest.PodSetSlices("main", false, 1, 1, 0, Map.of())));

        Optional<Placement> placed = placement.place(shared);

        assertThat(placed).map(Placement::cluster).contains("sim");
        assertThat(placed.orElseThrow().allPools()).isEmpty();
    }

    @Test
    void aWaitingWorkloadTakesThePoolsOfTheMostRecentLowerPriorityHolder() {
        placement.assign(holder("low-a", 1000000, 1), placement.place(jobSet("low-a", 1000000)).orElseThrow());
        placement.assign(holder("low-b", 1000000, 2), placement.place(jobSet("low-b", 1000000)).orElseThrow());

        Replacement replacement = placement.placeByPreempting(jobSet("high", 2000000)).orElseThrow();

        assertThat(replacement.victims()).extracting(Holder::workloadUid).containsExactly("low-b");
        assertThat(replacement.placement().allPools()).containsExactlyElementsOf(placement.poolsOf("low-b"));
    }

    @Test
    void aWaitingWorkloadPreemptsNobodyWhenFreePoolsSuffice() {
        placement.assign(holder("low", 1000000, 1), placement.place(jobSet("low", 1000000)).orElseThrow());

        Replacement replacement = placement.placeByPreempting(jobSet("high", 2000000)).orElseThrow();

        assertThat(replacement.victims()).isEmpty();
        assertThat(replacement.placement().allPools()).doesNotContainAnyElementsOf(placement.poolsOf("low"));
    }

    @Test
    void aWaitingWorkloadNeverPreemptsItsEqualsOrBetters() {
        placement.assign(holder("a", 1000000, 1), placement.place(jobSet("a", 1000000)).orElseThrow());
        placement.assign(holder("b", 2000000, 2), placement.place(jobSet("b", 2000000)).orElseThrow());

        assertThat(placement.placeByPreempting(jobSet("c", 1000000))).isEmpty();
    }

    @Test
    void theGenerationMovesWhenPoolsMayHaveBecomeFree() {
        long initial = placement.generation();
        placement.assign(holder("a", 1, 1), placement.place(jobSet("a", 1)).orElseThrow());
        assertThat(placement.generation()).as("taking pools frees none").isEqualTo(initial);

        placement.release("nobody");
        assertThat(placement.generation()).as("releasing nothing frees none").isEqualTo(initial);

        placement.release("a");
        long afterRelease = placement.generation();
        assertThat(afterRelease).isGreaterThan(initial);

        markUnhealthy("pool-3");
        assertThat(placement.generation()).isGreaterThan(afterRelease);
    }

    @Test
    void hotswapChoosesVictimsByTheirChangedPriority() {
        placement.replaceInventory(IntStream.range(0, 5).mapToObj(i -> pool("sim", "pool-" + i, NodePool.Health.Healthy))
                .toList());
        placement.assign(holder("high", 100, 1), placement.place(jobSet("high", 100)).orElseThrow());
        placement.assign(holder("first", 1, 2), placement.place(oneSlice("first", 1)).orElseThrow());
        placement.assign(holder("lowered", 50, 3), placement.place(oneSlice("lowered", 50)).orElseThrow());
        placement.assign(holder("raised", 1, 4), placement.place(oneSlice("raised", 1)).orElseThrow());
        List<PoolKey> loweredPools = placement.poolsOf("lowered");
        placement.changePriority("lowered", 1);
        placement.changePriority("raised", 200);
        markUnhealthy5("pool-1");

        Replacement replacement = placement.replace(jobSet("high", 100), Set.of(new PoolKey("sim", "pool-1")), ANY, VictimOrder.KUEUE).orElseThrow();

        assertThat(replacement.victims()).as("lowest priority now, then the most recently admitted")
                .containsExactly(holder("lowered", 1, 3));
        assertThat(replacement.placement().allPools()).containsAll(loweredPools);
    }

    @Test
    void aWaitingWorkloadPreemptsByTheHoldersChangedPriorityAndALoweredOneMovesTheGeneration() {
        placement.assign(holder("a", 5, 1), placement.place(jobSet("a", 5)).orElseThrow());
        placement.assign(holder("b", 5, 2), placement.place(jobSet("b", 5)).orElseThrow());
        long initial = placement.generation();

        placement.changePriority("b", 10);
        assertThat(placement.generation()).as("a raised holder frees nothing").isEqualTo(initial);
        placement.changePriority("nobody", 1);
        assertThat(placement.generation()).as("no holder, no change").isEqualTo(initial);
        placement.changePriority("a", 1);
        assertThat(placement.generation()).isGreaterThan(initial);

        Replacement replacement = placement.placeByPreempting(jobSet("c", 3)).orElseThrow();
        assertThat(replacement.victims()).extracting(Holder::workloadUid).containsExactly("a");
        assertThat(placement.placeByPreempting(jobSet("d", 7)).orElseThrow().victims()).as("b now outranks d")
                .extracting(Holder::workloadUid).containsExactly("a");
    }

    @Test
    void placementSpansClustersButAJobSetsSlicesStayInOne() {
        placement.replaceInventory(List.of(pool("east", "pool-0", NodePool.Health.Healthy),
                pool("east", "pool-1", NodePool.Health.Healthy), pool("west", "pool-0", NodePool.Health.Healthy),
                pool("west", "pool-1", NodePool.Health.Healthy)));
        Placement first = placement.place(jobSet("first", 1)).orElseThrow();
        placement.assign(holder("first", 1, 1), first);
        Placement second = placement.place(jobSet("second", 1)).orElseThrow();

        assertThat(first.cluster()).isEqualTo("east");
        assertThat(first.allPools()).containsExactly(new PoolKey("east", "pool-0"), new PoolKey("east", "pool-1"));
        assertThat(second.cluster()).isEqualTo("west");
        assertThat(second.allPools()).containsExactly(new PoolKey("west", "pool-0"), new PoolKey("west", "pool-1"));
    }

    @Test
    void oneFreePoolInEachOfTwoClustersIsNoRoomForTwoSlices() {
        placement.replaceInventory(List.of(pool("east", "pool-0", NodePool.Health.Healthy),
                pool("east", "pool-1", NodePool.Health.Healthy), pool("west", "pool-0", NodePool.Health.Healthy),
                pool("west", "pool-1", NodePool.Health.Healthy)));
        placement.assign(holder("a", 1, 1), placement.place(oneSlice("a", 1)).orElseThrow());
        placement.replaceInventory(List.of(pool("east", "pool-0", NodePool.Health.Healthy),
                pool("east", "pool-1", NodePool.Health.Healthy), pool("west", "pool-0", NodePool.Health.Unhealthy),
                pool("west", "pool-1", NodePool.Health.Healthy)));

        assertThat(placement.place(jobSet("b", 1))).isEmpty();
        assertThat(placement.place(oneSlice("c", 1)).orElseThrow().allPools()).containsExactly(new PoolKey("east", "pool-1"));
    }

    /**
     * Five pools: {@code high} (priority 100) on two, pool-1 of them broken; {@code older} and {@code newer}
     * (priority 1, admitted in that order) and {@code mid} (50) on one each.
     */
    private void highOnABrokenPoolAndThreeLowerHolders() {
        placement.replaceInventory(IntStream.range(0, 5).mapToObj(i -> pool("sim", "pool-" + i, NodePool.Health.Healthy))
                .toList());
        placement.assign(holder("high", 100, 1), placement.place(jobSet("high", 100)).orElseThrow());
        placement.assign(holder("older", 1, 2), placement.place(oneSlice("older", 1)).orElseThrow());
        placement.assign(holder("newer", 1, 3), placement.place(oneSlice("newer", 1)).orElseThrow());
        placement.assign(holder("mid", 50, 4), placement.place(oneSlice("mid", 50)).orElseThrow());
        markUnhealthy5("pool-1");
    }

    private void markUnhealthy(String... names) {
        Set<String> broken = Set.of(names);
        placement.replaceInventory(IntStream.range(0, 4).mapToObj(i -> "pool-" + i)
                .map(n -> pool("sim", n, broken.contains(n) ? NodePool.Health.Unhealthy : NodePool.Health.Healthy))
                .toList());
    }

    private void markUnhealthy5(String name) {
        placement.replaceInventory(IntStream.range(0, 5).mapToObj(i -> "pool-" + i)
                .map(n -> pool("sim", n, n.equals(name) ? NodePool.Health.Unhealthy : NodePool.Health.Healthy))
                .toList());
    }

    private static NodePool pool(String cluster, String name, NodePool.Health health) {
        Map<String, String> labels = new java.util.HashMap<>(V6E_4X4);
        labels.put("cloud.google.com/gke-nodepool", name);
        return new NodePool(cluster, name, labels, 4, 4, health);
    }

    /** The seed's JobSet: 2 slices of 4 pods x 4 chips on 4x4 v6e pools. */
    private static SliceRequest jobSet(String uid, int priority) {
        return new SliceRequest(uid, priority, List.of(new SliceRequest.PodSetSlices("slice", true, 2, 4, 16, V6E_4X4)));
    }

    private static SliceRequest oneSlice(String uid, int priority) {
        return new SliceRequest(uid, priority, List.of(new SliceRequest.PodSetSlices("slice", true, 1, 4, 16, V6E_4X4)));
    }

    private static Holder holder(String uid, int priority, int admittedSecond) {
        return new Holder(uid, priority, T0.plusSeconds(admittedSecond));
    }
}
