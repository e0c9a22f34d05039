package dev.platform.scheduler.workload;

import dev.platform.api.reason.PreemptionReason;
import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions.Admitting;
import dev.platform.scheduler.workload.WorkloadTransitions.Ending;
import dev.platform.scheduler.workload.WorkloadTransitions.Eviction;
import dev.platform.scheduler.workload.WorkloadTransitions.Expected;
import dev.platform.scheduler.workload.WorkloadTransitions.QuotaUse;
import dev.platform.scheduler.workload.WorkloadTransitions.Released;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.admission;
import static dev.platform.scheduler.testsupport.StoredWorkloads.job;
import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one writer of the {@code workload} table, a test per transition: what each changes, that each
 * bumps the version and draws a later change sequence (the loop's feed), the quota rows and timeline it
 * keeps in step, and that each refuses a row no longer as its caller expects.
 */
@StoreSliceTest
class WorkloadTransitionsTest {

    private static final Instant T0 = StoreSliceTest.NOW;
    private static final Instant T1 = T0.plusSeconds(10);

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    WorkloadStore store;

    @Autowired
    JdbcClient jdbc;

    private UUID uid;

    @BeforeEach
    void aPendingWorkload() {
        uid = submit(transitions, "team-a", "train", "lq", "cq", 5, T0);
    }

    private WorkloadRow row() {
        return store.find("team-a", "train").orElseThrow();
    }

    private List<String> conditions(Instant at) {
        return store.events(uid).stream().filter(e -> e.at().equals(at))
                .map(e -> e.type() + "=" + e.status() + "/" + e.reason()).toList();
    }

    private long quotaRows() {
        return jdbc.sql("SELECT count(*) FROM workload_usage WHERE workload_uid = ?").param(uid).query(Long.class).single();
    }

    /** The row moved on by one version, with a change sequence drawn after {@code before}'s. */
    private static void assertBumped(WorkloadRow before, WorkloadRow after) {
        assertThat(after.version()).isEqualTo(before.version() + 1);
        assertThat(after.changeSeq()).isGreaterThan(before.changeSeq());
    }

    private WorkloadRow admitted(String... pools) {
        WorkloadRow pending = row();
        Map<UUID, Long> landed = transitions.admit(List.of(new Admitting(uid, pending.version(), "cq",
                admission("cq", pools), pools.length == 0 ? null : "prod-1",
                List.of(new QuotaUse("default", "cpu", BigDecimal.ONE)))), T0, 1);
        assertThat(landed).containsKey(uid);
        return row();
    }

    @Test
    void aSubmissionIsPendingWithWhyItWaitsOnItsTimeline() {
        WorkloadRow row = row();

        assertThat(row.state()).isEqualTo(WorkloadState.Pending);
        assertThat(row.clusterQueue()).isEqualTo("cq");
        assertThat(row.priority()).isEqualTo(5);
        assertThat(row.queueTimestamp()).isEqualTo(T0);
        assertThat(row.pendingReason()).isEqualTo("WaitingForQuota");
        assertThat(row.podSets()).hasSize(1);
        assertThat(row.changeSeq()).isPositive();
        assertThat(conditions(T0)).containsExactly("QuotaReserved=False/WaitingForQuota");
    }

    @Test
    void aSubmissionKeepsItsIdempotencyKeyAndManifest() {
        UUID keyed = UUID.randomUUID();
        transitions.submit(keyed, job("team-a", "keyed", "lq"), "cq", null, 0, null, null, T0, "retry-1", null);

        assertThat(store.findByIdempotencyKey("team-a", "retry-1")).map(WorkloadRow::uid).contains(keyed);
        assertThat(store.manifest(keyed)).hasValueSatisfying(m -> assertThat(m).contains("\"kind\": \"Job\""));
        assertThat(store.events(keyed)).extracting(WorkloadStore.WorkloadEvent::reason).containsExactly("Pending");
    }

    @Test
    void admitTakesQuotaAndBumps() {
        WorkloadRow before = row();

        WorkloadRow after = admitted("pool-a");

        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Admitted);
        assertThat(after.admittedAt()).isEqualTo(T0);
        assertThat(after.cluster()).isEqualTo("prod-1");
        assertThat(after.pendingReason()).isNull();
        assertThat(after.admission().podSetAssignments().get(0).nodePools()).containsExactly("pool-a");
        assertThat(quotaRows()).isEqualTo(1);
        assertThat(conditions(T0)).contains("QuotaReserved=True/QuotaReserved", "Admitted=True/Admitted");
    }

    @Test
    void oneAdmissionOfManyWorkloadsInManyQueuesWritesEveryRowOnce() {
        UUID second = submit(transitions, "team-a", "eval", "lq", "cq", 5, T0);
        UUID third = submit(transitions, "team-b", "serve", "lq-b", "cq-b", 5, T0);
        UUID stale = submit(transitions, "team-b", "stale", "lq-b", "cq-b", 5, T0);
        Map<UUID, Long> versions = Map.of(uid, row().version(), second, version(second), third, version(third),
                stale, version(stale));
        jdbc.sql("DELETE FROM workload_event").update();

        Map<UUID, Long> landed = transitions.admit(List.of(
                new Admitting(uid, versions.get(uid), "cq", admission("cq", "pool-a"), "prod-1",
                        List.of(new QuotaUse("default", "cpu", new BigDecimal("1.5")),
                                new QuotaUse("default", "memory", new BigDecimal("1073741824")))),
                new Admitting(second, versions.get(second), "cq", admission("cq"), null,
                        List.of(new QuotaUse("spot", "cpu", BigDecimal.ONE))),
                new Admitting(stale, versions.get(stale) + 1, "cq-b", admission("cq-b"), null,
                        List.of(new QuotaUse("default", "cpu", BigDecimal.ONE))),
                new Admitting(third, versions.get(third), "cq-b", admission("cq-b", "pool-b"), "prod-2",
                        List.of(new QuotaUse("default", "cpu", new BigDecimal("0.250"))))), T1, 7);

        assertThat(landed).containsOnlyKeys(uid, second, third);
        assertThat(jdbc.sql("""
                        SELECT w.name || ' ' || w.state || ' ' || w.cluster_queue || ' ' || coalesce(w.cluster, '-')
                               || ' epoch ' || coalesce(w.admitted_epoch::text, '-') || ' v' || (w.version - d.v)
                        FROM workload w JOIN unnest(?::uuid[], ?::bigint[]) AS d(uid, v) ON d.uid = w.uid
                        ORDER BY w.name""")
                .params(new UUID[]{uid, second, third, stale}, new Long[]{versions.get(uid), versions.get(second),
                        versions.get(third), versions.get(stale)})
                .query(String.class).list())
                .containsExactly("eval Admitted cq - epoch 7 v1", "serve Admitted cq-b prod-2 epoch 7 v1",
                        "stale Pending cq-b - epoch - v0", "train Admitted cq prod-1 epoch 7 v1");
        assertThat(jdbc.sql("""
                        SELECT w.name || ' ' || u.cluster_queue || ' ' || u.flavor || ' ' || u.resource || ' '
                               || u.amount
                        FROM workload_usage u JOIN workload w ON w.uid = u.workload_uid ORDER BY 1""")
                .query(String.class).list())
                .containsExactly("eval cq spot cpu 1", "serve cq-b default cpu 0.250",
                        "train cq default cpu 1.5", "train cq default memory 1073741824");
        assertThat(jdbc.sql("""
                        SELECT w.name || ' ' || e.type || '=' || e.status || '/' || e.reason || ' ' || e.message
                        FROM workload_event e JOIN workload w ON w.uid = e.workload_uid WHERE e.at = ?
                        ORDER BY w.name, e.id""")
                .param(java.sql.Timestamp.from(T1)).query(String.class).list())
                .as("each workload's timeline in its order")
                .containsExactly(
                        "eval QuotaReserved=True/QuotaReserved Quota reserved in ClusterQueue cq",
                        "eval Admitted=True/Admitted The workload is admitted",
                        "serve QuotaReserved=True/QuotaReserved Quota reserved in ClusterQueue cq-b",
                        "serve Admitted=True/Admitted The workload is admitted",
                        "train QuotaReserved=True/QuotaReserved Quota reserved in ClusterQueue cq",
                        "train Admitted=True/Admitted The workload is admitted");
        assertThat(jdbc.sql("SELECT count(*) FROM workload_event").query(Long.class).single()).isEqualTo(6);
        assertThat(jdbc.sql("""
                        SELECT cluster_queue || ' ' || pending || ' ' || admitted FROM cluster_queue_workload_count
                        WHERE cluster_queue IN ('cq', 'cq-b') ORDER BY 1""").query(String.class).list())
                .containsExactly("cq 0 2", "cq-b 1 1");
    }

    private long version(UUID workload) {
        return jdbc.sql("SELECT version FROM workload WHERE uid = ?").param(workload).query(Long.class).single();
    }

    @Test
    void admitAtAnOldVersionLandsNothing() {
        WorkloadRow before = row();

        Map<UUID, Long> landed = transitions.admit(List.of(new Admitting(uid, before.version() + 1, "cq",
                admission("cq"), null, List.of(new QuotaUse("default", "cpu", BigDecimal.ONE)))), T1, 1);

        assertThat(landed).isEmpty();
        assertThat(row()).isEqualTo(before);
        assertThat(quotaRows()).isZero();
        assertThat(conditions(T1)).isEmpty();
    }

    @Test
    void placeGivesAWorkloadAdmittedWithoutAClusterItsPoolsOnce() {
        WorkloadRow unplaced = admitted();

        assertThat(transitions.place(uid, unplaced.version(), admission("cq", "pool-a"), "prod-1")).hasValue(unplaced.version() + 1);
        WorkloadRow placed = row();
        assertBumped(unplaced, placed);
        assertThat(placed.cluster()).isEqualTo("prod-1");
        assertThat(transitions.place(uid, placed.version(), admission("cq", "pool-b"), "prod-2")).isEmpty();
        assertThat(transitions.place(uid, unplaced.version(), admission("cq", "pool-b"), "prod-2")).isEmpty();
    }

    @Test
    void admitWithoutQuotaTakesNoQuotaRowsAndSaysPriorityOnly() {
        WorkloadRow before = row();

        assertThat(transitions.admitWithoutQuota(uid, before.version(), admission("cq", "pool-a"), "prod-1", T1, 1,
                "placed by priority")).isPresent();
        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Admitted);
        assertThat(quotaRows()).isZero();
        assertThat(conditions(T1)).containsExactly("Admitted=True/PriorityOnly");
        assertThat(transitions.admitWithoutQuota(uid, before.version(), admission("cq"), null, T1, 1, "again")).isEmpty();
    }

    @Test
    void restartMovesToNewPoolsKeepsTheQuotaAndCountsARestart() {
        WorkloadRow before = admitted("pool-a");

        assertThat(transitions.restart(uid, before.version(), admission("cq", "pool-b"), "prod-1", T1, "hotswapped"))
                .hasValue(before.version() + 1);
        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.restarts()).isEqualTo(1);
        assertThat(after.admission().podSetAssignments().get(0).nodePools()).containsExactly("pool-b");
        assertThat(quotaRows()).isEqualTo(1);
        assertThat(conditions(T1)).containsExactly("Hotswap=True/NodeFailure");
        assertThat(transitions.restart(uid, before.version(), admission("cq", "pool-c"), "prod-1", T1, "stale")).isEmpty();
    }

    @Test
    void recordPendingSaysWhyWithoutANewVersionAndOnlyWhenItChanged() {
        WorkloadRow before = row();

        transitions.recordPending(List.of(new WorkloadTransitions.PendingNote(uid, PendingReason.WaitingForNodePool, "no pool")),
                "QuotaReserved", T1);
        transitions.recordPending(List.of(new WorkloadTransitions.PendingNote(uid, PendingReason.WaitingForNodePool, "no pool")),
                "QuotaReserved", T1);

        WorkloadRow after = row();
        assertThat(after.version()).isEqualTo(before.version());
        assertThat(after.changeSeq()).isEqualTo(before.changeSeq());
        assertThat(after.pendingReason()).isEqualTo("WaitingForNodePool");
        assertThat(after.pendingMessage()).isEqualTo("no pool");
        assertThat(conditions(T1)).containsExactly("QuotaReserved=False/WaitingForNodePool");
    }

    @Test
    void recordPendingAppendsTheChangedReasonsInWorkloadOrder() {
        UUID second = submit(transitions, "team-a", "second", "lq", "cq", 5, T0);
        UUID third = submit(transitions, "team-a", "third", "lq", "cq", 5, T0);

        transitions.recordPending(List.of(
                new WorkloadTransitions.PendingNote(third, PendingReason.QueueStopped, "stopped"),
                new WorkloadTransitions.PendingNote(uid, PendingReason.WaitingForQuota, "waiting"),
                new WorkloadTransitions.PendingNote(second, PendingReason.WaitingForNodePool, "no pool")),
                "QuotaReserved", T1);

        String appended = "SELECT workload_uid, reason, message FROM workload_event WHERE at = ? ORDER BY ";
        List<String> byId = jdbc.sql(appended + "id").param(java.sql.Timestamp.from(T1))
                .query((rs, i) -> rs.getObject(1, UUID.class) + "/" + rs.getString(2) + "/" + rs.getString(3)).list();
        assertThat(byId).as("unchanged (the submission's own reason) left out")
                .containsExactlyInAnyOrder(third + "/QueueStopped/stopped", second + "/WaitingForNodePool/no pool");
        assertThat(byId).as("appended in the timeline index's order").isEqualTo(jdbc.sql(appended + "workload_uid")
                .param(java.sql.Timestamp.from(T1))
                .query((rs, i) -> rs.getObject(1, UUID.class) + "/" + rs.getString(2) + "/" + rs.getString(3)).list());
        assertThat(store.find(third).orElseThrow().pendingReason()).isEqualTo("QueueStopped");
    }

    @Test
    void recordingWhyAWorkloadWaitsWritesItsOwnRowNotTheWorkloads() {
        long before = jdbc.sql("SELECT pg_stat_get_xact_tuples_updated('workload'::regclass)").query(Long.class).single();

        transitions.recordPending(List.of(new WorkloadTransitions.PendingNote(uid, PendingReason.QueueStopped,
                "stopped")), "QuotaReserved", T1);
        transitions.recordPending(List.of(new WorkloadTransitions.PendingNote(uid, PendingReason.QueueStopped,
                "stopped")), "QuotaReserved", T1.plusSeconds(1));

        assertThat(jdbc.sql("SELECT pg_stat_get_xact_tuples_updated('workload'::regclass)").query(Long.class).single())
                .as("the wide workload row (and its indexes) left alone").isEqualTo(before);
        assertThat(storedReason()).containsExactly("QueueStopped/stopped");
        assertThat(conditions(T1)).containsExactly("QuotaReserved=False/QueueStopped");
        assertThat(conditions(T1.plusSeconds(1))).as("an unchanged reason is not repeated").isEmpty();
    }

    @Test
    void twoNotesOfOneWorkloadInOneCallRecordTheLast() {
        transitions.recordPending(List.of(new WorkloadTransitions.PendingNote(uid, PendingReason.QueueStopped, "first"),
                new WorkloadTransitions.PendingNote(uid, PendingReason.WaitingForQuota, "last")), "QuotaReserved", T1);

        assertThat(storedReason()).containsExactly("WaitingForQuota/last");
        assertThat(conditions(T1)).containsExactly("QuotaReserved=False/WaitingForQuota");
    }

    /** The workload's row of the pending reasons' own table, as {@code reason/message}; empty when it has none. */
    private List<String> storedReason() {
        return jdbc.sql("SELECT reason || '/' || coalesce(message, '') FROM workload_pending_reason WHERE workload_uid = ?")
                .param(uid).query(String.class).list();
    }

    private void noted(PendingReason reason, String message, Instant at) {
        transitions.recordPending(List.of(new WorkloadTransitions.PendingNote(uid, reason, message)), "QuotaReserved",
                at);
    }

    @Test
    void aWorkloadKeepsAReasonOnlyWhileItWaits() {
        assertThat(storedReason()).as("submitted").containsExactly("WaitingForQuota/waiting");

        WorkloadRow admitted = admitted("pool-a");
        assertThat(storedReason()).as("admitted").isEmpty();

        transitions.evict(List.of(new Eviction(uid, admitted.version(), EvictionReason.Preempted, "preempted", null)),
                T1);
        assertThat(storedReason()).as("evicted, active: the next cycle says why").isEmpty();

        noted(PendingReason.WaitingForQuota, "no quota", T1);
        WorkloadRow again = admitted("pool-a");
        assertThat(storedReason()).as("admitted again").isEmpty();

        transitions.requeueWithBackoff(uid, new Expected.AtVersion(again.version()), T1,
                EvictionReason.PodsReadyTimeout.name(), "timeout", 1, T1.plusSeconds(60), false);
        assertThat(storedReason()).as("backing off").containsExactly("PodsReadyTimeout/Requeued 1 time(s); backing off until "
                + T1.plusSeconds(60));

        admitted("pool-a");
        assertThat(transitions.end(List.of(new Ending(uid, WorkloadState.Finished, "Succeeded", "done")), T1))
                .containsExactly(uid);
        assertThat(storedReason()).as("finished").isEmpty();
    }

    @Test
    void aDeactivatedWorkloadWaitsAsDeactivatedUntilActivatedOrCancelled() {
        WorkloadRow pending = row();
        WorkloadTransitions.Change stop = new WorkloadTransitions.Change(false, pending.priorityClassName(),
                pending.priority(), "{}", null);
        transitions.change(pending, stop, T1, "alice");
        assertThat(storedReason()).containsExactly("Deactivated/" + WorkloadTransitions.DEACTIVATED_MESSAGE);

        noted(PendingReason.WaitingForQuota, "decided before it stopped", T1);
        assertThat(storedReason()).as("an inactive workload keeps its reason")
                .containsExactly("Deactivated/" + WorkloadTransitions.DEACTIVATED_MESSAGE);

        WorkloadRow stopped = row();
        transitions.change(stopped, new WorkloadTransitions.Change(true, stopped.priorityClassName(),
                stopped.priority(), "{}", null), T1, "alice");
        assertThat(storedReason()).as("activated: the next cycle says why").isEmpty();

        noted(PendingReason.QueueStopped, "stopped", T1);
        assertThat(transitions.cancel(uid, T1, "alice")).isTrue();
        assertThat(storedReason()).as("cancelled").isEmpty();
    }

    @Test
    void anAdmittedWorkloadDeactivatedWaitsAsDeactivatedOnceEvicted() {
        WorkloadRow admitted = admitted("pool-a");
        WorkloadRow stopped = store.find(uid).orElseThrow();
        transitions.change(stopped, new WorkloadTransitions.Change(false, stopped.priorityClassName(),
                stopped.priority(), "{}", null), T1, "alice");
        assertThat(storedReason()).as("still admitted").isEmpty();

        transitions.evict(List.of(new Eviction(uid, admitted.version() + 1, EvictionReason.Deactivated,
                WorkloadTransitions.DEACTIVATED_MESSAGE, null)), T1);

        assertThat(row().state()).isEqualTo(WorkloadState.Pending);
        assertThat(storedReason()).containsExactly("Deactivated/" + WorkloadTransitions.DEACTIVATED_MESSAGE);
    }

    @Test
    void evictRequeuesAtTheOriginalPlaceReleasesQuotaAndSaysWhy() {
        WorkloadRow before = admitted("pool-a");

        List<Released> released = transitions.evict(List.of(new Eviction(uid, before.version(), EvictionReason.Preempted,
                "preempted by big", PreemptionReason.InClusterQueue)), T1);

        assertThat(released).containsExactly(new Released(uid, before.version() + 1, "prod-1", "team-a", "train"));
        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Pending);
        assertThat(after.admission()).isNull();
        assertThat(after.cluster()).isNull();
        assertThat(after.queueTimestamp()).isEqualTo(T0);
        assertThat(quotaRows()).isZero();
        assertThat(conditions(T1)).containsExactly("Evicted=True/Preempted", "Preempted=True/InClusterQueue",
                "QuotaReserved=False/Preempted", "Admitted=False/Preempted", "Requeued=True/Preempted");
    }

    @Test
    void evictRefusesAnOldVersionAndAPendingWorkload() {
        WorkloadRow pending = row();
        assertThat(transitions.evict(List.of(new Eviction(uid, pending.version(), EvictionReason.Preempted, "m", null)), T1)).isEmpty();

        WorkloadRow admitted = admitted("pool-a");
        assertThat(transitions.evict(List.of(new Eviction(uid, pending.version(), EvictionReason.Preempted, "m", null)), T1)).isEmpty();
        assertThat(row()).isEqualTo(admitted);
        assertThat(quotaRows()).isEqualTo(1);
    }

    @Test
    void anEvictedWorkloadWhosePodsRanNoLongerShowsThemReady() {
        running();

        transitions.evict(List.of(new Eviction(uid, row().version(), EvictionReason.Preempted, "preempted by big",
                PreemptionReason.InClusterQueue)), T1);

        assertThat(row().state()).isEqualTo(WorkloadState.Pending);
        assertThat(podsReady()).isEqualTo(new WorkloadStatus.Condition("PodsReady", "False", "WaitForStart",
                "Not all pods are ready or succeeded", T1));
    }

    @Test
    void aWorkloadRequeuedAfterItsPoolsFailedNoLongerShowsItsPodsReady() {
        running();

        assertThat(transitions.requeue(uid, new Expected.AtVersion(row().version()), T1, EvictionReason.NodeFailures,
                "pool failed", "requeued")).isPresent();

        assertThat(podsReady().status()).isEqualTo("False");
        assertThat(conditions(T1)).containsExactly("Evicted=True/NodeFailures", "QuotaReserved=False/NodeFailures",
                "Requeued=True/NodeFailures", "PodsReady=False/WaitForStart");
    }

    /** Admitted on pool-a and running there since T0 (PodsReady True). */
    private void running() {
        admitted("pool-a");
        assertThat(transitions.markRunning(uid, "prod-1", List.of("pool-a"), T0, "2 pod(s) running")).isTrue();
        assertThat(podsReady().status()).isEqualTo("True");
    }

    private WorkloadStatus.Condition podsReady() {
        return store.conditions(List.of(uid)).get(uid).stream().filter(c -> c.type().equals("PodsReady"))
                .findFirst().orElseThrow();
    }

    @Test
    void requeueAtTheExpectedVersionReleasesQuotaAndSaysWhy() {
        WorkloadRow before = admitted("pool-a");

        assertThat(transitions.requeue(uid, new Expected.AtVersion(before.version() + 1), T1, EvictionReason.NodeFailures, "m", "r"))
                .isEmpty();
        assertThat(transitions.requeue(uid, new Expected.AtVersion(before.version()), T1, EvictionReason.NodeFailures, "pool failed",
                "requeued")).hasValueSatisfying(r -> assertThat(r.cluster()).isEqualTo("prod-1"));

        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Pending);
        assertThat(quotaRows()).isZero();
        assertThat(conditions(T1)).containsExactly("Evicted=True/NodeFailures", "QuotaReserved=False/NodeFailures",
                "Requeued=True/NodeFailures");
    }

    @Test
    void resumingAWorkloadDeactivatedByTheRequeuingLimitResetsItsRequeueState() {
        WorkloadRow admitted = admitted("pool-a");
        transitions.requeueWithBackoff(uid, new Expected.AtVersion(admitted.version()), T0,
                EvictionReason.PodsReadyTimeout.name(), "timeout", 2, T0.plusSeconds(60), false);
        WorkloadRow again = admitted("pool-a");
        transitions.deactivate(uid, new Expected.AtVersion(again.version()), T1,
                DeactivationReason.RequeuingLimitExceeded.name(),
                DeactivationReason.RequeuingLimitExceeded.evictedReason(), "limit reached", List.of());
        WorkloadRow deactivated = row();
        assertThat(deactivated.lifecycle().active()).isFalse();
        assertThat(deactivated.lifecycle().requeueCount()).isEqualTo(2);

        assertThat(transitions.change(deactivated, new WorkloadTransitions.Change(true,
                deactivated.priorityClassName(), deactivated.priority(), "{}", null), T1.plusSeconds(1), "alice")).isPresent();

        WorkloadRow resumed = row();
        assertThat(resumed.state()).isEqualTo(WorkloadState.Pending);
        assertThat(resumed.lifecycle()).isEqualTo(new WorkloadRow.Lifecycle(true, 0, null, false, null));
        assertThat(resumed.pendingReason()).isNull();
        assertThat(conditions(T1.plusSeconds(1))).containsExactly("Requeued=True/Reactivated");
    }

    @Test
    void anOutcomeOfACommandLandsOnlyWhileNoLaterCommandExists() {
        admitted("pool-a");
        jdbc.sql("INSERT INTO cluster (name) VALUES ('prod-1')").update();
        long first = command();

        long later = command();
        assertThat(transitions.fail(uid, new Expected.LatestCommand("prod-1", first), T1, "StartFailed", "m")).isEmpty();
        assertThat(transitions.fail(uid, new Expected.LatestCommand("prod-2", later), T1, "StartFailed", "m")).isEmpty();
        assertThat(transitions.fail(uid, new Expected.LatestCommand("prod-1", later), T1, "StartFailed",
                "image not found")).isPresent();
        assertThat(row().state()).isEqualTo(WorkloadState.Failed);
    }

    private long command() {
        return jdbc.sql("""
                INSERT INTO agent_command (cluster, type, workload_uid, payload, expires_at)
                VALUES ('prod-1', 'START', ?, '{}', now() + interval '1 hour') RETURNING seq""")
                .param(uid).query(Long.class).single();
    }

    @Test
    void failFinishesReleasesQuotaAndSaysWhy() {
        WorkloadRow before = admitted("pool-a");

        assertThat(transitions.fail(uid, new Expected.AtVersion(before.version()), T1, "RestartsExhausted", "gave up"))
                .isPresent();
        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Failed);
        assertThat(after.finishedAt()).isEqualTo(T1);
        assertThat(quotaRows()).isZero();
        assertThat(conditions(T1)).containsExactly("Finished=True/RestartsExhausted");
    }

    @Test
    void markRunningOnlyWhereTheAdmissionPlacedIt() {
        WorkloadRow before = admitted("pool-a", "pool-b");

        assertThat(transitions.markRunning(uid, "prod-2", List.of("pool-a", "pool-b"), T1, "m")).isFalse();
        assertThat(transitions.markRunning(uid, "prod-1", List.of("pool-a"), T1, "m")).isFalse();
        assertThat(transitions.markRunning(uid, "prod-1", List.of("pool-b", "pool-a", "pool-b"), T1, "pods ready")).isTrue();

        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Running);
        assertThat(conditions(T1)).containsExactly("PodsReady=True/PodsReady");
        assertThat(transitions.markRunning(uid, "prod-1", List.of("pool-a", "pool-b"), T1, "again")).isFalse();
    }

    @Test
    void endFinishesARunningWorkloadOnceAndNotAPendingOne() {
        Ending succeeded = new Ending(uid, WorkloadState.Finished, "Succeeded", "done");
        assertThat(transitions.end(List.of(succeeded), T1)).isEmpty();

        WorkloadRow before = admitted("pool-a");
        assertThat(transitions.end(List.of(succeeded), T1)).containsExactly(uid);
        assertThat(transitions.end(List.of(new Ending(uid, WorkloadState.Failed, "Failed", "again")), T1)).isEmpty();

        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Finished);
        assertThat(after.finishedAt()).isEqualTo(T1);
        assertThat(quotaRows()).isZero();
        assertThat(conditions(T1)).containsExactly("Finished=True/Succeeded");
    }

    @Test
    void cancelFinishesWithTheActorOnceAndReleasesQuotaAtOnce() {
        WorkloadRow before = admitted("pool-a");

        assertThat(transitions.cancel(uid, T1, "alice")).isTrue();
        assertThat(transitions.cancel(uid, T1, "bob")).isFalse();

        WorkloadRow after = row();
        assertBumped(before, after);
        assertThat(after.state()).isEqualTo(WorkloadState.Finished);
        assertThat(quotaRows()).isZero();
        assertThat(store.events(uid)).filteredOn(e -> e.at().equals(T1))
                .extracting(WorkloadStore.WorkloadEvent::message).containsExactly("Cancelled by alice");
    }

    @Test
    void pendingWorkloadsFollowTheirLocalQueueToItsClusterQueue() {
        jdbc.sql("""
                INSERT INTO local_queue (namespace, name, cluster_queue, stop_policy, spec)
                VALUES ('team-a', 'lq', 'other-cq', 'None', '{}')""").update();

        transitions.followLocalQueues();

        assertThat(row().clusterQueue()).isEqualTo("other-cq");
    }

    @Test
    void finishedHistoryIsDeletedOldestFirstInBatches() {
        transitions.cancel(uid, T0, "alice");
        UUID newer = submit(transitions, "team-a", "newer", "lq", "cq", 0, T0);
        transitions.cancel(newer, T1, "alice");

        assertThat(transitions.deleteFinishedBefore(T1.plusSeconds(1), 1)).isEqualTo(1);
        assertThat(store.find("team-a", "train")).isEmpty();
        assertThat(store.find("team-a", "newer")).isPresent();
        assertThat(store.events(uid)).isEmpty();
    }
}
