package dev.platform.scheduler.hotswap;

import dev.platform.api.agent.NodeHealthReason;
import dev.platform.scheduler.testsupport.KeysetPages;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.web.KeysetCursor;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hotswap history: a decided event's later phases are stamped once and only when due (every victim's
 * eviction final; the disrupted workload running), what an event in progress waits for, and keyset pages
 * with their filters.
 */
@StoreSliceTest
class HotswapStoreTest {

    private static final Instant T0 = StoreSliceTest.NOW;

    @Autowired
    HotswapStore store;

    @Autowired
    JdbcClient jdbc;

    private final HotswapEvent.Party disrupted = party("train");
    private final HotswapEvent.Party victimA = party("victim-a");
    private final HotswapEvent.Party victimB = party("victim-b");

    private static HotswapEvent.Party party(String name) {
        return new HotswapEvent.Party("team-a", name, UUID.randomUUID(), 0);
    }

    @BeforeEach
    void aConnectedCluster() {
        jdbc.sql("INSERT INTO cluster (name) VALUES ('prod-1')").update();
    }

    private long decided(HotswapEvent.Party of, Instant detectedAt, String cluster, List<HotswapEvent.Party> victims) {
        return store.record(new HotswapEvent(0, cluster, "pool-a", List.of("node-1"), "NOT_READY", of, victims,
                List.of("pool-b"), "InProgress", detectedAt, detectedAt.plusSeconds(1), null, null, null));
    }

    private long stop(HotswapEvent.Party victim, String state, String message) {
        return jdbc.sql("""
                        INSERT INTO agent_command (cluster, type, workload_uid, namespace, name, state, result_message)
                        VALUES ('prod-1', 'STOP', ?, 'team-a', ?, ?, ?) RETURNING seq""")
                .params(victim.uid(), victim.name(), state, message).query(Long.class).single();
    }

    private void settle(long command) {
        jdbc.sql("UPDATE agent_command SET state = 'Succeeded' WHERE seq = ?").param(command).update();
    }

    @Test
    void evictionsAreDoneOnlyOnceEveryVictimsStopIsFinal() {
        long id = decided(disrupted, T0, "prod-1", List.of(victimA, victimB));
        long stopA = stop(victimA, "Delivered", "blocked by a PodDisruptionBudget");
        stop(victimB, "Pending", null);

        assertThat(store.find(id).orElseThrow().waitingFor())
                .isEqualTo("eviction of team-a/victim-a: blocked by a PodDisruptionBudget;"
                        + " eviction of team-a/victim-b: not reported by the agent yet");
        settle(stopA);
        assertThat(store.evictionsDone(victimA.uid(), T0.plusSeconds(5))).isEmpty();

        jdbc.sql("UPDATE agent_command SET state = 'Refused' WHERE state = 'Pending'").update();
        List<HotswapEvent> done = store.evictionsDone(victimB.uid(), T0.plusSeconds(6));

        assertThat(done).singleElement().satisfies(e -> {
            assertThat(e.id()).isEqualTo(id);
            assertThat(e.evictionsDoneAt()).isEqualTo(T0.plusSeconds(6));
            assertThat(e.waitingFor()).isNull();
        });
        assertThat(store.evictionsDone(victimB.uid(), T0.plusSeconds(7))).isEmpty();
    }

    @Test
    void runningAgainRecoversTheEventInProgressOnce() {
        long id = decided(disrupted, T0, "prod-1", List.of());

        assertThat(store.running(disrupted.uid(), T0.plusSeconds(30))).hasValueSatisfying(e -> {
            assertThat(e.id()).isEqualTo(id);
            assertThat(e.outcome()).isEqualTo("Recovered");
            assertThat(e.runningAt()).isEqualTo(T0.plusSeconds(30));
            assertThat(e.evictionsDoneAt()).as("no eviction to wait for").isEqualTo(T0.plusSeconds(30));
            assertThat(e.mttrSeconds()).isEqualTo(30.0);
        });
        assertThat(store.running(disrupted.uid(), T0.plusSeconds(40))).isEmpty();
    }

    @Test
    void aRequeuedHotswapIsNoLongerInProgress() {
        long id = decided(disrupted, T0, "prod-1", List.of());

        store.requeued(disrupted.uid());

        assertThat(store.find(id).orElseThrow().outcome()).isEqualTo("Requeued");
        assertThat(store.running(disrupted.uid(), T0.plusSeconds(30))).isEmpty();
    }

    @Test
    void aDecidedEventReadsBackWholeWithNoPriorityOnceItsWorkloadIsGone() {
        long id = decided(disrupted, T0, "prod-1", List.of(victimA));

        HotswapEvent event = store.find(id).orElseThrow();

        assertThat(event.disrupted().priority()).as("no workload row: no priority").isZero();
        assertThat(event.victims()).containsExactly(victimA);
        assertThat(event.nodes()).containsExactly("node-1");
        assertThat(event.replacementPools()).containsExactly("pool-b");
    }

    @Test
    void pagesFollowTheKeysetThroughEventsOfTheSameInstantWithTheirFilters() {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(decided(i == 0 ? disrupted : party("w" + i), i < 4 ? T0 : T0.plusSeconds(9), i % 2 == 0 ? "prod-1" : "prod-2",
                    List.of()));
        }

        List<HotswapEvent> seen = KeysetPages.all((KeysetCursor<Long> cursor) -> cursor == null
                        ? store.page(null, null, Optional.empty(), null, null, 2)
                        : store.page(null, null, Optional.empty(), cursor.at(), cursor.key(), 2),
                2, last -> new KeysetCursor<>(last.detectedAt(), last.id()));

        assertThat(seen).extracting(HotswapEvent::id).containsExactlyInAnyOrderElementsOf(ids);
        assertThat(seen).isSortedAccordingTo(Comparator.comparing(HotswapEvent::detectedAt)
                .thenComparingLong(HotswapEvent::id).reversed());
        assertThat(store.page("prod-2", null, Optional.empty(), null, null, 10)).extracting(HotswapEvent::cluster).containsOnly("prod-2")
                .hasSize(2);
        assertThat(store.page(null, disrupted.uid(), Optional.empty(), null, null, 10)).extracting(HotswapEvent::id)
                .containsExactly(ids.get(0));
    }

    @Test
    void aTeamsPageHoldsTheEventsOfWorkloadsInItsNamespacesOnly() {
        long ours = decided(disrupted, T0, "prod-1", List.of());
        decided(new HotswapEvent.Party("team-b", "theirs", UUID.randomUUID(), 0), T0, "prod-1", List.of());

        assertThat(store.page(null, null, Optional.of(Set.of("team-a")), null, null, 10)).extracting(HotswapEvent::id)
                .containsExactly(ours);
        assertThat(store.page(null, null, Optional.empty(), null, null, 10)).hasSize(2);
    }

    @Test
    void aHotswapIsBlockedOnceAVictimsEvictionWasRefusedPastTheBoundAndEndsSupersededByTheNext() {
        long blocked = decided(disrupted, T0, "prod-1", List.of(victimA, victimB));
        stop(victimA, "Delivered", "4 eviction(s) refused by a PodDisruptionBudget; retrying");
        stop(victimB, "Failed", "an earlier STOP that gave up");
        stop(victimB, "Succeeded", "JobSet suspended, 4 pod(s) evicted");
        HotswapEvent.Party quiet = party("quiet");
        decided(quiet, T0, "prod-1", List.of(victimB));
        HotswapEvent.Party notReported = party("not-reported");
        HotswapEvent.Party victimC = party("victim-c");
        decided(notReported, T0, "prod-1", List.of(victimC));
        stop(victimC, "Delivered", null);
        HotswapEvent.Party gaveUp = party("gave-up");
        HotswapEvent.Party victimD = party("victim-d");
        long failed = decided(gaveUp, T0, "prod-1", List.of(victimD));
        stop(victimD, "Failed", "4 pod(s) still protected by a PodDisruptionBudget after PT5M");

        assertThat(store.blockedSince(T0)).as("decided after the bound").isEmpty();
        List<HotswapStore.BlockedHotswap> found = store.blockedSince(T0.plusSeconds(61));
        assertThat(found).extracting(HotswapStore.BlockedHotswap::id).containsExactly(blocked, failed);
        assertThat(found.get(0).blockedVictims()).containsExactly(victimA.uid());
        assertThat(found.get(0).blockedNames()).containsExactly("team-a/victim-a");
        assertThat(found.get(0).disrupted()).isEqualTo(disrupted.uid());
        assertThat(found.get(0).blockedPools()).as("the cluster reports no pods of theirs").isEmpty();

        store.superseded(disrupted.uid());

        assertThat(store.find(blocked).orElseThrow().outcome()).isEqualTo("Superseded");
        assertThat(store.blockedSince(T0.plusSeconds(61))).extracting(HotswapStore.BlockedHotswap::id)
                .containsExactly(failed);
    }

    @Test
    void aBlockedHotswapsReasonsAreReadBackAsNodeHealthReasonsWithoutTheChoiceNote() {
        assertThat(HotswapStore.healthReasons("NOT_READY, UNREACHABLE; the eviction of team-a/victim-a refused for "
                + "longer than 60s, other victims chosen")).containsExactly(NodeHealthReason.NOT_READY,
                NodeHealthReason.UNREACHABLE);
        assertThat(HotswapStore.healthReasons("CORDONED, SOMETHING_NEWER")).containsExactly(NodeHealthReason.CORDONED);
    }
}
