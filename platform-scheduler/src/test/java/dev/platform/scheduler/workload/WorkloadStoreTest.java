package dev.platform.scheduler.workload;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.testsupport.KeysetPages;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.web.KeysetCursor;
import dev.platform.scheduler.workload.PendingWorkloadsController.PendingWorkload;
import dev.platform.scheduler.workload.WorkloadTransitions.Admitting;
import dev.platform.scheduler.workload.WorkloadTransitions.QuotaUse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.admission;
import static dev.platform.scheduler.testsupport.StoredWorkloads.job;
import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading workloads: keyset pages through rows created at the same instant, the filters of a list (a team's
 * namespaces, state, LocalQueue), queue positions in the scheduler's order, the loop's change feed and the
 * latest condition of each type.
 */
@StoreSliceTest
class WorkloadStoreTest {

    private static final Instant T0 = StoreSliceTest.NOW;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    WorkloadStore store;

    @Autowired
    JdbcTemplate jdbc;

    private UUID pending(String namespace, String name, int priority, Instant at) {
        return submit(transitions, namespace, name, "lq", "cq", priority, at);
    }

    private void admit(UUID uid) {
        WorkloadRow row = store.changedSince(0, 1000).stream().filter(w -> w.uid().equals(uid)).findFirst().orElseThrow();
        assertThat(transitions.admit(List.of(new Admitting(uid, row.version(), "cq", admission("cq"), null,
                List.of(new QuotaUse("default", "cpu", BigDecimal.ONE)))), T0, 1)).containsKey(uid);
    }

    /** Postgres orders uuids bytewise, which is the order of their lower-case text. */
    private static final Comparator<WorkloadRow> NEWEST_FIRST = Comparator.comparing(WorkloadRow::createdAt)
            .thenComparing(w -> w.uid().toString()).reversed();

    @Test
    void pagesFollowTheKeysetThroughWorkloadsCreatedAtTheSameInstant() {
        for (int i = 0; i < 7; i++) {
            pending("team-a", "job-" + i, 0, i < 5 ? T0 : T0.plusSeconds(i));
        }

        List<WorkloadRow> seen = KeysetPages.all(
                (KeysetCursor<UUID> cursor) -> store.list("team-a", null, null, cursor, 2), 2,
                last -> new KeysetCursor<>(last.createdAt(), last.uid()));

        assertThat(seen).hasSize(7).doesNotHaveDuplicates().isSortedAccordingTo(NEWEST_FIRST);
        assertThat(seen.subList(0, 2)).extracting(WorkloadRow::name).containsExactly("job-6", "job-5");
    }

    @Test
    void aListShowsOnlyTheNamespacesAskedForAndItsFilters() {
        pending("team-a", "a-pending", 0, T0);
        UUID admitted = pending("team-a", "a-admitted", 0, T0);
        admit(admitted);
        pending("team-b", "b-pending", 0, T0);
        pending("team-c", "c-pending", 0, T0);
        submit(transitions, "team-a", "a-other-queue", "other", "cq", 0, T0);

        assertThat(store.list(Set.of("team-a", "team-b"), null, null, null, 100)).extracting(WorkloadRow::name)
                .containsExactlyInAnyOrder("a-pending", "a-admitted", "b-pending", "a-other-queue");
        assertThat(store.list(Set.of(), null, null, null, 100)).isEmpty();
        assertThat(store.list("team-a", WorkloadState.Admitted, null, null, 100)).extracting(WorkloadRow::name)
                .containsExactly("a-admitted");
        assertThat(store.list("team-a", WorkloadState.Pending, "lq", null, 100)).extracting(WorkloadRow::name)
                .containsExactly("a-pending");
        assertThat(store.list("team-a", WorkloadState.Finished, null, null, 100)).isEmpty();
    }

    @Test
    void positionsCountPendingWorkloadsByPriorityThenQueueTimeThenUid() {
        UUID holding = pending("team-a", "holding", 100, T0.minusSeconds(60));
        admit(holding);
        UUID first = pending("team-a", "first", 0, T0);
        UUID tieA = pending("team-a", "tie-a", 0, T0.plusSeconds(1));
        UUID tieB = pending("team-a", "tie-b", 0, T0.plusSeconds(1));
        UUID urgent = pending("team-a", "urgent", 10, T0.plusSeconds(2));
        UUID elsewhere = submit(transitions, "team-b", "elsewhere", "lq", "cq", 5, T0);
        List<UUID> ties = tieA.toString().compareTo(tieB.toString()) < 0 ? List.of(tieA, tieB) : List.of(tieB, tieA);
        List<UUID> queueOrder = List.of(urgent, elsewhere, first, ties.get(0), ties.get(1));

        List<PendingWorkload> inClusterQueue = store.pendingInClusterQueue("cq", 0, 10);

        assertThat(inClusterQueue).extracting(w -> w.uid()).containsExactlyElementsOf(queueOrder);
        assertThat(inClusterQueue).extracting(PendingWorkload::positionInClusterQueue).containsExactly(0, 1, 2, 3, 4);
        assertThat(inClusterQueue).extracting(PendingWorkload::positionInLocalQueue).containsExactly(0, 0, 1, 2, 3);
        Map<UUID, WorkloadStore.Positions> positions = store.positions(List.of(holding, first, ties.get(1), elsewhere));
        assertThat(positions).doesNotContainKey(holding);
        assertThat(positions.get(first)).isEqualTo(new WorkloadStore.Positions(2, 1));
        assertThat(positions.get(ties.get(1))).isEqualTo(new WorkloadStore.Positions(4, 3));
        assertThat(positions.get(elsewhere)).isEqualTo(new WorkloadStore.Positions(1, 0));
        assertThat(store.pendingInClusterQueue("cq", 3, 10)).extracting(w -> w.uid())
                .containsExactly(ties.get(0), ties.get(1));
    }

    /**
     * Positions in a queue deeper than a position reads one by one, with priorities, equal queue times, evicted,
     * deactivated and admitted workloads among the pending ones: near the head they are counted, near the end
     * they are the queue's count less what is behind, in the middle counted again; all as counting every workload
     * ahead says.
     */
    @Test
    void positionsInADeepQueueAreWhatCountingEveryWorkloadAheadGives() {
        Random random = new Random(7);
        List<UUID> uids = new ArrayList<>();
        for (int i = 0; i < 3 * WorkloadStore.COUNTED; i++) {
            String namespace = random.nextInt(3) == 0 ? "team-b" : "team-a";
            int priority = List.of(0, 0, 0, 5, 10).get(random.nextInt(5));
            uids.add(pending(namespace, "w-" + i, priority, T0.plusSeconds(random.nextInt(200))));
        }
        for (int i = 0; i < uids.size(); i += 37) {
            jdbc.update("UPDATE workload SET state = 'Evicted' WHERE uid = ?", uids.get(i));
        }
        for (int i = 5; i < uids.size(); i += 41) {
            jdbc.update("UPDATE workload SET active = false WHERE uid = ?", uids.get(i));
        }
        for (int i = 11; i < uids.size(); i += 53) {
            admit(uids.get(i));
        }
        Set<UUID> inadmissible = new HashSet<>();
        for (int i = 3; i < uids.size(); i += 29) {
            jdbc.update("""
                    INSERT INTO workload_pending_reason (workload_uid, reason, message) VALUES (?, 'ExceedsMaxQuota', 'x')
                    ON CONFLICT (workload_uid) DO UPDATE SET reason = excluded.reason""", uids.get(i));
            inadmissible.add(uids.get(i));
        }
        record Queued(UUID uid, String namespace, int priority, Instant at) {
        }
        Comparator<Queued> queueOrder = Comparator.comparingInt((Queued q) -> -q.priority()).thenComparing(Queued::at)
                .thenComparing(q -> q.uid().toString());
        List<Queued> pending = jdbc.query("""
                        SELECT uid, namespace, priority, queue_timestamp FROM workload
                        WHERE cluster_queue = 'cq' AND state = 'Pending' AND active""",
                (rs, i) -> new Queued(rs.getObject(1, UUID.class), rs.getString(2), rs.getInt(3),
                        rs.getTimestamp(4).toInstant()));
        pending.sort(queueOrder);

        Map<UUID, WorkloadStore.Positions> positions = store.positions(uids);

        assertThat(positions.keySet()).containsExactlyInAnyOrderElementsOf(pending.stream().map(Queued::uid).toList());
        List<Queued> withoutPosition = pending.stream().filter(w -> inadmissible.contains(w.uid())).toList();
        assertThat(withoutPosition).as("inadmissible pending workloads, counted ahead of no one").hasSizeGreaterThan(10)
                .allSatisfy(w -> assertThat(positions.get(w.uid())).isEqualTo(new WorkloadStore.Positions(null, null)));
        pending.removeAll(withoutPosition);
        Set<String> ends = new TreeSet<>();
        for (int inClusterQueue = 0; inClusterQueue < pending.size(); inClusterQueue++) {
            Queued w = pending.get(inClusterQueue);
            int inLocalQueue = (int) pending.subList(0, inClusterQueue).stream()
                    .filter(o -> o.namespace().equals(w.namespace())).count();
            assertThat(positions.get(w.uid())).as("position of %s", w)
                    .isEqualTo(new WorkloadStore.Positions(inClusterQueue, inLocalQueue));
            int behind = pending.size() - 1 - inClusterQueue;
            ends.add(inClusterQueue < WorkloadStore.COUNTED ? "near the head"
                    : behind < WorkloadStore.COUNTED ? "near the end" : "in the middle");
        }
        assertThat(ends).containsExactlyInAnyOrder("near the head", "near the end", "in the middle");
    }

    @Test
    void aLocalQueuePageCountsItsClusterQueuePositionsAcrossOtherLocalQueues() {
        pending("team-a", "a-first", 0, T0);
        submit(transitions, "team-b", "b-urgent", "lq", "cq", 10, T0);
        pending("team-a", "a-second", 0, T0.plusSeconds(1));

        List<PendingWorkload> page = store.pendingInLocalQueue("team-a", "lq", 1, 10);

        assertThat(page).singleElement().satisfies(w -> {
            assertThat(w.name()).isEqualTo("a-second");
            assertThat(w.positionInLocalQueue()).isEqualTo(1);
            assertThat(w.positionInClusterQueue()).isEqualTo(2);
        });
    }

    @Test
    void theChangeFeedHandsOutChangesInTheirOrderAfterASequence() {
        UUID a = pending("team-a", "a", 0, T0);
        UUID b = pending("team-a", "b", 0, T0);
        long afterSubmissions = store.latestChange();

        admit(a);

        assertThat(store.changedSince(afterSubmissions, 10)).extracting(WorkloadRow::uid).containsExactly(a);
        assertThat(store.changedSince(0, 10)).extracting(WorkloadRow::uid).containsExactly(b, a);
        assertThat(store.changedSince(0, 1)).extracting(WorkloadRow::uid).containsExactly(b);
        assertThat(store.latestChange()).isGreaterThan(afterSubmissions);
        assertThat(store.active()).extracting(WorkloadRow::uid).containsExactly(b, a);
        transitions.cancel(b, T0, "alice");
        assertThat(store.active()).extracting(WorkloadRow::uid).containsExactly(a);
    }

    @Test
    void aRebuildDecodesEachDistinctPodSetsAndAdmissionOnce() {
        UUID a = pending("team-a", "a", 0, T0);
        UUID b = pending("team-a", "b", 0, T0);
        UUID c = pending("team-a", "c", 0, T0);
        admit(b);
        admit(c);

        Map<UUID, WorkloadRow> active = new HashMap<>();
        store.active().forEach(w -> active.put(w.uid(), w));

        assertThat(active.get(b).podSets()).isSameAs(active.get(a).podSets()).isEqualTo(store.find(a).orElseThrow().podSets());
        assertThat(active.get(c).admission()).isSameAs(active.get(b).admission())
                .isEqualTo(store.find(b).orElseThrow().admission());
    }

    @Test
    void conditionsAreTheLatestOfEachType() {
        UUID uid = pending("team-a", "a", 0, T0);
        admit(uid);
        transitions.evict(List.of(new WorkloadTransitions.Eviction(uid, store.find("team-a", "a").orElseThrow().version(),
                EvictionReason.Preempted, "preempted", PreemptionReason.InClusterQueue)), T0.plusSeconds(5));

        Map<String, String> latest = new HashMap<>();
        store.conditions(List.of(uid)).get(uid).forEach(c -> latest.put(c.type(), c.status() + "/" + c.reason()));

        assertThat(latest).containsEntry("QuotaReserved", "False/Preempted").containsEntry("Admitted", "False/Preempted")
                .containsEntry("Evicted", "True/Preempted").containsEntry("Requeued", "True/Preempted")
                .containsEntry("Preempted", "True/InClusterQueue").hasSize(5);
        assertThat(store.conditions(List.of())).isEmpty();
    }

    /** Kueue's SetQuotaReservation: quota reserved again turns Evicted and Preempted False, keeping why they were. */
    @Test
    void quotaReservedAgainAfterAPreemptionTurnsEvictedAndPreemptedFalse() {
        UUID uid = pending("team-a", "a", 0, T0);
        admit(uid);
        transitions.evict(List.of(new WorkloadTransitions.Eviction(uid, store.find("team-a", "a").orElseThrow().version(),
                EvictionReason.Preempted, "preempted", PreemptionReason.InClusterQueue)), T0.plusSeconds(5));
        long version = store.find("team-a", "a").orElseThrow().version();
        assertThat(transitions.admit(List.of(new Admitting(uid, version, "cq", admission("cq"), null,
                List.of(new QuotaUse("default", "cpu", BigDecimal.ONE)))), T0.plusSeconds(10), 1)).containsKey(uid);

        Map<String, String> latest = new HashMap<>();
        store.conditions(List.of(uid)).get(uid).forEach(c -> latest.put(c.type(), c.status() + "/" + c.reason()
                + "/" + c.message()));
        assertThat(latest).containsEntry("QuotaReserved", "True/QuotaReserved/Quota reserved in ClusterQueue cq")
                .containsEntry("Evicted", "False/QuotaReserved/Previously: preempted")
                .containsEntry("Preempted", "False/QuotaReserved/Previously: preempted");
    }

    @Test
    void priorityOnlyWorkloadsComeHighestPriorityFirstThenOldest() {
        UUID low = priorityOnly("low", 1, T0);
        UUID highLater = priorityOnly("high-later", 9, T0.plusSeconds(1));
        UUID highEarlier = priorityOnly("high-earlier", 9, T0);
        pending("team-a", "queued", 100, T0);

        assertThat(store.priorityOnly(10)).extracting(WorkloadRow::uid).containsExactly(highEarlier, highLater, low);
    }

    private UUID priorityOnly(String name, int priority, Instant at) {
        UUID uid = UUID.randomUUID();
        transitions.submit(uid, job("team-a", name, null), null, null,
                priority, PendingReason.WaitingForNodePool, WorkloadService.PRIORITY_ONLY_MESSAGE, at, null, null);
        return uid;
    }
}
