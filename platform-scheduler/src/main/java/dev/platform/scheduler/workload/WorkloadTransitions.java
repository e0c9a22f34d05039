package dev.platform.scheduler.workload;

import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.manifest.WorkloadManifest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The one writer of the {@code workload} table: every change of a workload's state is a method here.
 * Each runs in the caller's transaction, under {@link #lockChanges()}; each guards its update (the
 * version the caller knows, or the state it expects), bumps the row's {@code version} and draws the
 * next {@code change_seq} (so the scheduling loop sees the change on its feed), keeps the quota rows
 * ({@code workload_usage}) and why it waits ({@code workload_pending_reason}) in step, and appends the workload's
 * conditions to its timeline. Callers decide; this class records. Agent commands, preemption and hotswap events
 * stay with the callers.
 */
@Repository
public class WorkloadTransitions {

    /**
     * Serialises workload writers ("workload" in ASCII): the change sequence a writer draws is then in
     * commit order (migration V2), so the scheduling loop, reading its feed by sequence, misses no change.
     */
    private static final long WORKLOAD_CHANGES_LOCK = 0x776f726b6c6f6164L;

    /** Kueue's message for a workload whose spec.active is false (its Evicted and Requeued conditions). */
    public static final String DEACTIVATED_MESSAGE = "The workload is deactivated";

    /** What every state change sets besides its own columns; the table is aliased {@code w} in each update. */
    private static final String BUMP = "version = w.version + 1, change_seq = nextval('workload_change_seq')";

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final WorkloadStore store;

    WorkloadTransitions(JdbcTemplate jdbcTemplate, JsonMapper json, WorkloadStore store) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
        this.json = json;
        this.store = store;
    }

    /** A timeline entry to append. */
    public record NewEvent(UUID uid, Instant at, String type, String status, String reason, String message) {
    }

    /** Serialises workload writers until the end of the current transaction. */
    public void lockChanges() {
        jdbc.sql("SELECT pg_advisory_xact_lock(?)").param(WORKLOAD_CHANGES_LOCK).query().singleValue();
    }

    /**
     * The same lock in its shared mode, until the end of the current transaction: for writers of what waiting
     * workloads are told ({@link #recordPending}), which no other writer may interleave with but which may run
     * beside each other. They draw no change sequence.
     */
    public void lockChangesShared() {
        jdbc.sql("SELECT pg_advisory_xact_lock_shared(?)").param(WORKLOAD_CHANGES_LOCK).query().singleValue();
    }

    /**
     * The latest revision every change up to which is committed: read while no writer holds the lock (a writer draws
     * its revision and commits under it), so a reader that lists at this revision and then watches from it misses
     * no change. Every kind's changes draw from this one sequence.
     */
    @Transactional(readOnly = true)
    public long committedRevision() {
        lockChangesShared();
        return jdbc.sql("SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM workload_change_seq")
                .query(Long.class).single();
    }

    // ---- submission -------------------------------------------------------------------------

    /**
     * A new Pending workload, with why it waits at first (an inactive one: {@link PendingReason#Deactivated}) and who
     * submitted it (null for one adopted from a cluster). The caller holds {@link #lockChanges()}.
     */
    public void submit(UUID uid, WorkloadManifest manifest, String clusterQueue, String priorityClassName, int priority,
                       PendingReason pendingReason, String pendingMessage, Instant now, String idempotencyKey,
                       String submittedBy) {
        submitAll(List.of(new NewWorkload(uid, manifest, clusterQueue, priorityClassName, priority, pendingReason,
                pendingMessage, now, idempotencyKey, submittedBy)));
    }

    /**
     * A workload to store as submitted at {@code at}: its LocalQueue's ClusterQueue (null when it has none), its
     * priority, and why it waits at first.
     */
    public record NewWorkload(UUID uid, WorkloadManifest manifest, String clusterQueue, String priorityClassName,
                              int priority, PendingReason pendingReason, String pendingMessage, Instant at,
                              String idempotencyKey, String submittedBy) {

        WorkloadStatus.Condition firstCondition() {
            return WorkloadTransitions.firstCondition(pendingReason == null ? null : pendingReason.name(),
                    pendingMessage, at);
        }
    }

    /**
     * New Pending workloads with why they wait and the first timeline entry of each, in one statement, in the order
     * given (their change sequence follows it); returns the rows as stored, in the same order. The caller holds
     * {@link #lockChanges()}.
     */
    public List<WorkloadRow> submitAll(List<NewWorkload> workloads) {
        if (workloads.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                WITH submitted AS (
                    SELECT * FROM unnest(:uids::uuid[], :namespaces::text[], :names::text[], :kinds::text[],
                                         :queues::text[], :clusterQueues::text[], :classes::text[], :priorities::int[],
                                         :manifests::text[], :podSets::text[], :reasons::text[], :messages::text[],
                                         :ats::timestamptz[], :maxRestarts::int[], :keys::text[], :topologies::text[],
                                         :maxSeconds::int[], :actives::boolean[], :submitters::text[],
                                         :checkpoints::timestamptz[], :firstReasons::text[],
                                         :firstMessages::text[])
                         WITH ORDINALITY AS s(uid, namespace, name, kind, queue_name, cluster_queue,
                                              priority_class_name, priority, manifest, pod_sets, pending_reason,
                                              pending_message, at, max_restarts, idempotency_key, exclusive_topology,
                                              maximum_execution_time_seconds, active, submitted_by, last_checkpoint,
                                              first_reason, first_message, n)),
                reasons AS (""" + storeReasons("SELECT uid, pending_reason, pending_message FROM submitted"
                        + " WHERE pending_reason IS NOT NULL") + """
                ),
                timeline AS (
                    INSERT INTO workload_event (workload_uid, at, type, status, reason, message)
                    SELECT uid, at, :firstType, :firstStatus, first_reason, first_message FROM submitted ORDER BY n),
                stored AS (
                    INSERT INTO workload (uid, namespace, name, kind, queue_name, cluster_queue, priority_class_name,
                                          priority, state, manifest, pod_sets, queue_timestamp, created_at,
                                          max_restarts, idempotency_key, exclusive_topology,
                                          maximum_execution_time_seconds, active, submitted_by, last_checkpoint)
                    SELECT uid, namespace, name, kind, queue_name, cluster_queue, priority_class_name, priority,
                           'Pending', manifest::jsonb, pod_sets::jsonb, at, at, max_restarts, idempotency_key,
                           exclusive_topology, maximum_execution_time_seconds, active, submitted_by, last_checkpoint
                    FROM submitted
                    ORDER BY n
                    RETURNING *)
                """ + "SELECT " + WorkloadStore.COLUMNS + """

                FROM stored workload
                JOIN (SELECT uid AS workload_uid, pending_reason AS reason, pending_message AS message, n
                      FROM submitted) pending ON pending.workload_uid = workload.uid
                ORDER BY pending.n""")
                .param("uids", workloads.stream().map(NewWorkload::uid).toArray(UUID[]::new))
                .param("namespaces", texts(workloads, w -> w.manifest().namespace()))
                .param("names", texts(workloads, w -> w.manifest().name()))
                .param("kinds", texts(workloads, w -> w.manifest().kind().manifestName()))
                .param("queues", texts(workloads, w -> w.manifest().queueName()))
                .param("clusterQueues", texts(workloads, NewWorkload::clusterQueue))
                .param("classes", texts(workloads, NewWorkload::priorityClassName))
                .param("priorities", workloads.stream().map(NewWorkload::priority).toArray(Integer[]::new))
                .param("manifests", texts(workloads, w -> json.writeValueAsString(w.manifest().manifest())))
                .param("podSets", texts(workloads, w -> json.writeValueAsString(w.manifest().podSets())))
                .param("reasons", texts(workloads, w -> w.pendingReason() == null ? null : w.pendingReason().name()))
                .param("messages", texts(workloads, NewWorkload::pendingMessage))
                .param("ats", texts(workloads, w -> w.at().toString()))
                .param("maxRestarts", workloads.stream().map(w -> w.manifest().maxRestarts()).toArray(Integer[]::new))
                .param("keys", texts(workloads, NewWorkload::idempotencyKey))
                .param("topologies", texts(workloads, w -> w.manifest().exclusiveTopology()))
                .param("maxSeconds", workloads.stream().map(w -> w.manifest().maximumExecutionTimeSeconds())
                        .toArray(Integer[]::new))
                .param("actives", workloads.stream().map(w -> w.manifest().active()).toArray(Boolean[]::new))
                .param("submitters", texts(workloads, NewWorkload::submittedBy))
                .param("checkpoints", texts(workloads, w -> {
                    Instant checkpoint = PreemptionAnnotations.lastCheckpoint(w.manifest().metadata().annotations());
                    return checkpoint == null ? null : checkpoint.toString();
                }))
                .param("firstReasons", texts(workloads, w -> w.firstCondition().reason()))
                .param("firstMessages", texts(workloads, w -> w.firstCondition().message()))
                .param("firstType", FIRST_CONDITION_TYPE)
                .param("firstStatus", FIRST_CONDITION_STATUS)
                .query(store.rows()).list();
    }

    private static final String FIRST_CONDITION_TYPE = "QuotaReserved";
    private static final String FIRST_CONDITION_STATUS = "False";

    /**
     * A new workload's first timeline entry, and its only condition until the scheduler looks at it: QuotaReserved
     * False, with why it waits ({@code pendingReason}, null before the scheduler has said) at its submission.
     */
    static WorkloadStatus.Condition firstCondition(String pendingReason, String pendingMessage, Instant submittedAt) {
        return new WorkloadStatus.Condition(FIRST_CONDITION_TYPE, FIRST_CONDITION_STATUS,
                pendingReason != null ? pendingReason : "Pending",
                pendingMessage != null ? pendingMessage : "Waiting for the scheduler", submittedAt);
    }

    private static String[] texts(List<NewWorkload> workloads, Function<NewWorkload, String> text) {
        return workloads.stream().map(text).toArray(String[]::new);
    }

    /** Pending workloads follow their LocalQueue to its ClusterQueue (or to none), so positions count in the right queue. */
    public void followLocalQueues() {
        jdbc.sql("""
                UPDATE workload w SET cluster_queue = lq.cluster_queue
                FROM workload p LEFT JOIN local_queue lq ON lq.namespace = p.namespace AND lq.name = p.queue_name
                WHERE w.uid = p.uid AND p.state = 'Pending'
                  AND p.cluster_queue IS DISTINCT FROM lq.cluster_queue""").update();
    }

    // ---- admission --------------------------------------------------------------------------

    /** Quota one admitted workload holds of one flavor and resource. */
    public record QuotaUse(String flavor, String resource, BigDecimal amount) {
    }

    /**
     * A Pending workload to admit, if still at {@code expectedVersion}: its admission, cluster and quota; with
     * {@code admissionChecks} only its quota is reserved (Admitted stays False until every check is Ready).
     */
    public record Admitting(UUID uid, long expectedVersion, String clusterQueue, String admission, String cluster,
                            List<QuotaUse> quota, List<String> admissionChecks) {

        public Admitting {
            admissionChecks = List.copyOf(admissionChecks);
        }

        public Admitting(UUID uid, long expectedVersion, String clusterQueue, String admission, String cluster,
                         List<QuotaUse> quota) {
            this(uid, expectedVersion, clusterQueue, admission, cluster, quota, List.of());
        }
    }

    /**
     * Pending -> Admitted, in one statement for all; the quota rows and the QuotaReserved and Admitted
     * conditions of those that landed. Returns the new version of each that landed.
     */
    public Map<UUID, Long> admit(List<Admitting> admits, Instant now, long epoch) {
        Map<UUID, Long> landed = new HashMap<>();
        if (admits.isEmpty()) {
            return landed;
        }
        jdbc.sql("""
                WITH admitted AS (
                    UPDATE workload w
                    SET state = 'Admitted', cluster_queue = d.cq, admission = d.admission::jsonb, admitted_at = :now,
                        cluster = d.cluster, admitted_epoch = :epoch, requeue_at = NULL, pods_ready = false,
                        pods_ready_changed_at = NULL, %s
                    FROM unnest(:uids::uuid[], :queues::text[], :admissions::text[], :clusters::text[],
                                :versions::bigint[]) AS d(uid, cq, admission, cluster, version)
                    WHERE w.uid = d.uid AND w.state = 'Pending' AND w.version = d.version
                    RETURNING w.uid, w.version),
                reasons AS (%s)
                SELECT uid, version FROM admitted""".formatted(BUMP, forgetReasons("admitted")))
                .param("now", Timestamp.from(now)).param("epoch", epoch)
                .param("uids", admits.stream().map(Admitting::uid).toArray(UUID[]::new))
                .param("queues", admits.stream().map(Admitting::clusterQueue).toArray(String[]::new))
                .param("admissions", admits.stream().map(Admitting::admission).toArray(String[]::new))
                .param("clusters", admits.stream().map(Admitting::cluster).toArray(String[]::new))
                .param("versions", admits.stream().map(Admitting::expectedVersion).toArray(Long[]::new))
                .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), rs.getLong(2)))
                .list().forEach(e -> landed.put(e.getKey(), e.getValue()));
        List<Object[]> usage = new ArrayList<>();
        List<NewEvent> events = new ArrayList<>();
        Map<UUID, List<NewEvent>> resets = evictionResets(landed.keySet(), now);
        for (Admitting a : admits) {
            if (!landed.containsKey(a.uid())) {
                continue;
            }
            a.quota().forEach(q -> usage.add(new Object[]{a.uid(), a.clusterQueue(), q.flavor(), q.resource(),
                    q.amount()}));
            events.add(new NewEvent(a.uid(), now, "QuotaReserved", "True", "QuotaReserved",
                    "Quota reserved in ClusterQueue " + a.clusterQueue()));
            events.addAll(resets.getOrDefault(a.uid(), List.of()));
            events.add(a.admissionChecks().isEmpty() ? admittedEvent(a.uid(), now)
                    : new NewEvent(a.uid(), now, "Admitted", "False", "UnsatisfiedChecks",
                            "The workload has not all checks ready"));
        }
        if (!usage.isEmpty()) {
            jdbc.sql("""
                    INSERT INTO workload_usage (workload_uid, cluster_queue, flavor, resource, amount)
                    SELECT * FROM unnest(:uids::uuid[], :queues::text[], :flavors::text[], :resources::text[],
                                         :amounts::numeric[])""")
                    .param("uids", usage.stream().map(u -> (UUID) u[0]).toArray(UUID[]::new))
                    .param("queues", usage.stream().map(u -> (String) u[1]).toArray(String[]::new))
                    .param("flavors", usage.stream().map(u -> (String) u[2]).toArray(String[]::new))
                    .param("resources", usage.stream().map(u -> (String) u[3]).toArray(String[]::new))
                    .param("amounts", usage.stream().map(u -> ((BigDecimal) u[4]).toPlainString()).toArray(String[]::new))
                    .update();
        }
        appendEvents(events);
        return landed;
    }

    /**
     * Kueue's SetQuotaReservation: a workload reserving quota again after an eviction or a preemption has its Evicted
     * and Preempted conditions turned False (reason QuotaReserved, the old message kept after "Previously: "), so
     * that a requeued workload admitted again no longer reads as evicted; and a Requeued condition left False by a
     * backoff turns True as Kueue's does when the backoff ends (BackoffFinished), which it has when quota is reserved.
     */
    private Map<UUID, List<NewEvent>> evictionResets(Collection<UUID> uids, Instant now) {
        Map<UUID, List<NewEvent>> resets = new HashMap<>();
        if (uids.isEmpty()) {
            return resets;
        }
        jdbc.sql("""
                        SELECT workload_uid, type, message FROM (
                            SELECT DISTINCT ON (workload_uid, type) workload_uid, type, status, message
                            FROM workload_event
                            WHERE workload_uid = ANY(:uids) AND type IN ('Evicted', 'Preempted', 'Requeued')
                            ORDER BY workload_uid, type, at DESC, id DESC) latest
                        WHERE (type = 'Requeued') = (status = 'False')
                        ORDER BY workload_uid, type""")
                .param("uids", uids.toArray(UUID[]::new))
                .query((rs, i) -> "Requeued".equals(rs.getString(2))
                        ? new NewEvent(rs.getObject(1, UUID.class), now, "Requeued", "True", "BackoffFinished",
                                "The workload backoff was finished")
                        : new NewEvent(rs.getObject(1, UUID.class), now, rs.getString(2), "False",
                                "QuotaReserved", "Previously: " + Objects.toString(rs.getString(3), "")))
                .list().forEach(e -> resets.computeIfAbsent(e.uid(), k -> new ArrayList<>()).add(e));
        return resets;
    }

    /**
     * Every admission check of a workload holding quota is Ready: it is admitted as of {@code now} (the time its
     * pods-ready and execution clocks count from) and its Admitted condition turns True. The version is left as it
     * is, so that the placement that follows in the same turn finds the row as the cache holds it.
     */
    public void checksReady(UUID uid, Instant now) {
        int updated = jdbc.sql("UPDATE workload SET admitted_at = ? WHERE uid = ? AND state IN ('Admitted', 'Running')")
                .params(Timestamp.from(now), uid).update();
        if (updated == 1) {
            appendEvents(List.of(admittedEvent(uid, now)));
        }
    }

    /** Kueue's Admitted condition once the workload is admitted (its quota reserved and every check Ready). */
    public static NewEvent admittedEvent(UUID uid, Instant now) {
        return new NewEvent(uid, now, "Admitted", "True", "Admitted", "The workload is admitted");
    }

    /**
     * A workload admitted while no cluster was connected gets its node pools once one is (its admission
     * with pools, its cluster). Empty when it changed meanwhile.
     */
    public Optional<Long> place(UUID uid, long expectedVersion, String admission, String cluster) {
        return jdbc.sql("""
                        UPDATE workload w SET admission = ?::jsonb, cluster = ?, %s
                        WHERE w.uid = ? AND w.version = ? AND w.state = 'Admitted' AND w.cluster IS NULL
                        RETURNING w.version""".formatted(BUMP))
                .params(admission, cluster, uid, expectedVersion).query(Long.class).optional();
    }

    /**
     * Pending -> Admitted without quota (priority-only mode: no queue name), onto the pools in
     * {@code admission}. Empty when it changed meanwhile.
     */
    public Optional<Long> admitWithoutQuota(UUID uid, long expectedVersion, String admission, String cluster,
                                            Instant now, long epoch, String message) {
        Optional<Long> version = jdbc.sql("""
                        WITH admitted AS (
                            UPDATE workload w SET state = 'Admitted', admission = ?::jsonb, cluster = ?,
                                   admitted_at = ?, admitted_epoch = ?, requeue_at = NULL, pods_ready = false,
                                   pods_ready_changed_at = NULL, %s
                            WHERE w.uid = ? AND w.version = ? AND w.state = 'Pending' RETURNING w.uid, w.version),
                        reasons AS (%s)
                        SELECT version FROM admitted""".formatted(BUMP, forgetReasons("admitted")))
                .params(admission, cluster, Timestamp.from(now), epoch, uid, expectedVersion)
                .query(Long.class).optional();
        version.ifPresent(v -> appendEvents(List.of(new NewEvent(uid, now, "Admitted", "True", "PriorityOnly", message))));
        return version;
    }

    /**
     * A hotswap's recovery: re-placed on new pools with its quota kept, a restart counted, Admitted again
     * until the agent reports it running; its pods wait for recovery from now (Kueue's PodsReady=False,
     * WaitForRecovery), so the recovery timeout, not the start timeout, bounds them. Empty when it changed meanwhile.
     */
    public Optional<Long> restart(UUID uid, long expectedVersion, String admission, String cluster, Instant now,
                                  String message) {
        Optional<Long> version = jdbc.sql("""
                        UPDATE workload w SET state = 'Admitted', admission = ?::jsonb, cluster = ?,
                               restarts = w.restarts + 1, pods_ready = false, pods_ready_changed_at = ?, %s
                        WHERE w.uid = ? AND w.version = ? RETURNING w.version""".formatted(BUMP))
                .params(admission, cluster, Timestamp.from(now), uid, expectedVersion).query(Long.class).optional();
        version.ifPresent(v -> appendEvents(List.of(new NewEvent(uid, now, "Hotswap", "True", "NodeFailure", message))));
        return version;
    }

    // ---- while pending ----------------------------------------------------------------------

    /** Why one Pending workload waits. */
    public record PendingNote(UUID uid, PendingReason reason, String message) {
    }

    /**
     * Sets why Pending workloads wait, in one statement, without a new version (waiting is no change the
     * loop acts on); a {@code condition}=False entry is appended only for those whose reason or message
     * changed, so an unchanged reason is not repeated in a timeline, by the same statement (a first cycle after a
     * start notes a whole backlog: its changed rows are not sent back and forth), in workload order as
     * {@link #appendEvents} appends.
     * An inactive workload keeps its reason (Deactivated): a cycle decided before it was stopped must not write
     * over it. The reasons are rows of their own narrow table, not of the workload's (migration V37).
     */
    public void recordPending(List<PendingNote> notes, String condition, Instant now) {
        if (notes.isEmpty()) {
            return;
        }
        // one note a workload, its last: an upsert may not touch the same row twice in one statement
        Collection<PendingNote> last = notes.stream().collect(Collectors.toMap(PendingNote::uid, n -> n,
                (earlier, later) -> later, LinkedHashMap::new)).values();
        jdbc.sql("""
                        WITH d AS (
                            SELECT * FROM unnest(:uids::uuid[], :reasons::text[], :messages::text[])
                                          AS d(uid, reason, message)),
                        noted AS (
                            INSERT INTO workload_pending_reason AS r (workload_uid, reason, message)
                            SELECT d.uid, d.reason, d.message FROM d JOIN workload w ON w.uid = d.uid
                            WHERE w.state = 'Pending' AND w.active ORDER BY d.uid
                            ON CONFLICT (workload_uid) DO UPDATE SET reason = excluded.reason, message = excluded.message
                            WHERE r.reason IS DISTINCT FROM excluded.reason OR r.message IS DISTINCT FROM excluded.message
                            RETURNING r.workload_uid)
                        INSERT INTO workload_event (workload_uid, at, type, status, reason, message)
                        SELECT d.uid, :at::timestamptz, :condition, 'False', d.reason, d.message
                        FROM noted JOIN d ON d.uid = noted.workload_uid ORDER BY d.uid""")
                .param("uids", last.stream().map(PendingNote::uid).toArray(UUID[]::new))
                .param("reasons", last.stream().map(n -> n.reason().name()).toArray(String[]::new))
                .param("messages", last.stream().map(PendingNote::message).toArray(String[]::new))
                .param("at", now.toString())
                .param("condition", condition)
                .update();
    }

    // ---- taking quota away ------------------------------------------------------------------

    /**
     * One workload to evict, if still at {@code expectedVersion}.
     *
     * @param reason           the Evicted condition's reason
     * @param preemptionReason the Preempted condition's reason, or null when not preempted
     */
    public record Eviction(UUID uid, long expectedVersion, EvictionReason reason, String message,
                           PreemptionReason preemptionReason) {
    }

    /** A workload whose quota was taken: its new version, and the cluster its pods ran in (null when none). */
    public record Released(UUID uid, long version, String cluster, String namespace, String name) {
    }

    /**
     * Admitted or Running -> Pending at its original queue timestamp (Kueue requeues evicted workloads
     * at their position), in one statement for all; quota rows go; the Evicted, Preempted, QuotaReserved,
     * Admitted and Requeued conditions say why. A deactivated workload is not requeued: it waits with
     * pending reason {@link PendingReason#Deactivated} until activated. Returns those that landed.
     */
    public List<Released> evict(List<Eviction> evictions, Instant now) {
        if (evictions.isEmpty()) {
            return List.of();
        }
        List<Released> landed = jdbc.sql("""
                WITH evicted AS (
                    UPDATE workload w SET state = 'Pending', admission = NULL, admitted_at = NULL, cluster = NULL, %s
                    FROM unnest(:uids::uuid[], :versions::bigint[]) AS d(uid, version),
                         (SELECT uid AS old_uid, cluster AS old_cluster FROM workload WHERE uid = ANY(:uids)) o
                    WHERE w.uid = d.uid AND o.old_uid = w.uid AND w.state IN ('Admitted', 'Running')
                      AND w.version = d.version
                    RETURNING w.uid, w.version, o.old_cluster, w.namespace, w.name, w.active),
                requeued AS (%s),
                deactivated AS (%s)
                SELECT uid, version, old_cluster, namespace, name FROM evicted""".formatted(BUMP,
                        forgetReasons("(SELECT uid FROM evicted WHERE active)"),
                        storeReasons("SELECT uid, :deactivated, :deactivatedMessage FROM evicted WHERE NOT active")))
                .param("uids", evictions.stream().map(Eviction::uid).toArray(UUID[]::new))
                .param("versions", evictions.stream().map(Eviction::expectedVersion).toArray(Long[]::new))
                .param("deactivated", PendingReason.Deactivated.name()).param("deactivatedMessage", DEACTIVATED_MESSAGE)
                .query((rs, i) -> new Released(rs.getObject(1, UUID.class), rs.getLong(2), rs.getString(3),
                        rs.getString(4), rs.getString(5)))
                .list();
        List<UUID> uids = landed.stream().map(Released::uid).toList();
        List<NewEvent> events = new ArrayList<>();
        for (Eviction e : evictions) {
            if (!uids.contains(e.uid())) {
                continue;
            }
            String reason = e.reason().name();
            events.add(new NewEvent(e.uid(), now, "Evicted", "True", reason, e.message()));
            if (e.preemptionReason() != null) {
                events.add(new NewEvent(e.uid(), now, "Preempted", "True", e.preemptionReason().name(), e.message()));
            }
            events.add(new NewEvent(e.uid(), now, "QuotaReserved", "False", reason, "The workload was evicted"));
            events.add(new NewEvent(e.uid(), now, "Admitted", "False", reason, "The workload was evicted"));
            events.add(e.reason() == EvictionReason.Deactivated
                    ? new NewEvent(e.uid(), now, "Requeued", "False", reason, DEACTIVATED_MESSAGE)
                    : new NewEvent(e.uid(), now, "Requeued", "True", reason,
                            "Requeued at its original position after eviction"));
        }
        appendEvents(events);
        releaseEvicted(uids, now);
        return landed;
    }

    /**
     * What the caller expects of the row it changes: that it is still at the version the caller read,
     * or, for the outcome of an agent command, that it is still Admitted in that command's cluster with
     * no later command for it (the workload has not moved on since).
     */
    public sealed interface Expected permits Expected.AtVersion, Expected.LatestCommand {

        record AtVersion(long version) implements Expected {
        }

        record LatestCommand(String cluster, long commandSeq) implements Expected {
        }
    }

    /**
     * Back to Pending at its original place after its node pools failed (Kueue's NodeFailures eviction):
     * quota released, Evicted, QuotaReserved=False and Requeued say why.
     */
    public Optional<Released> requeue(UUID uid, Expected expected, Instant now, EvictionReason reason,
                                      String message, String requeuedMessage) {
        Optional<Released> requeued = guarded("""
                UPDATE workload w SET state = 'Pending', admission = NULL, admitted_at = NULL, cluster = NULL, %s
                FROM (SELECT cluster AS old_cluster FROM workload WHERE uid = :uid) o
                WHERE w.uid = :uid AND %s
                RETURNING w.uid, w.version, o.old_cluster, w.namespace, w.name""", uid, expected, now);
        requeued.ifPresent(r -> {
            appendEvents(List.of(new NewEvent(uid, now, "Evicted", "True", reason.name(), message),
                    new NewEvent(uid, now, "QuotaReserved", "False", reason.name(), message),
                    new NewEvent(uid, now, "Requeued", "True", reason.name(), requeuedMessage)));
            releaseEvicted(List.of(uid), now);
        });
        return requeued;
    }

    /** Failed (a JobSet that could not start, restarts exhausted): quota released, Finished says why. */
    public Optional<Released> fail(UUID uid, Expected expected, Instant now, String reason, String message) {
        Optional<Released> failed = guarded("""
                UPDATE workload w SET state = 'Failed', finished_at = :now, %s
                FROM (SELECT cluster AS old_cluster FROM workload WHERE uid = :uid) o
                WHERE w.uid = :uid AND %s
                RETURNING w.uid, w.version, o.old_cluster, w.namespace, w.name""", uid, expected, now);
        failed.ifPresent(f -> {
            releaseQuota(List.of(uid));
            appendEvents(List.of(new NewEvent(uid, now, "Finished", "True", reason, message)));
        });
        return failed;
    }

    /**
     * Admitted or Running -> Pending, to queue again once {@code requeueAt} has passed (Kueue's eviction for
     * {@code PodsReadyTimeout} with its requeueState): quota released, the requeue counted, the queue timestamp
     * moved to now when {@code queueAtEviction} (Kueue's requeuingStrategy.timestamp Eviction); Evicted says why,
     * Requeued=False until the backoff ends.
     */
    public Optional<Released> requeueWithBackoff(UUID uid, Expected expected, Instant now, String reason,
                                                 String message, int requeueCount, Instant requeueAt,
                                                 boolean queueAtEviction) {
        Optional<Released> requeued = guarded("""
                WITH requeued AS (
                    UPDATE workload w SET state = 'Pending', admission = NULL, admitted_at = NULL, cluster = NULL,
                           requeue_count = :count, requeue_at = :requeueAt, pods_ready = false,
                           pods_ready_changed_at = NULL,
                           queue_timestamp = CASE WHEN :queueAtEviction THEN :now ELSE w.queue_timestamp END, %s
                    FROM (SELECT cluster AS old_cluster FROM workload WHERE uid = :uid) o
                    WHERE w.uid = :uid AND w.state IN ('Admitted', 'Running') AND %s
                    RETURNING w.uid, w.version, o.old_cluster, w.namespace, w.name),
                reasons AS (""" + storeReasons("SELECT uid, :reason, :waiting FROM requeued") + """
                )
                SELECT * FROM requeued""", uid, expected, now,
                Map.of("count", requeueCount, "requeueAt", Timestamp.from(requeueAt), "reason", reason,
                        "waiting", backoffMessage(requeueCount, requeueAt), "queueAtEviction", queueAtEviction));
        requeued.ifPresent(r -> {
            appendEvents(List.of(new NewEvent(uid, now, "Evicted", "True", reason, message),
                    new NewEvent(uid, now, "QuotaReserved", "False", reason, "The workload was evicted"),
                    new NewEvent(uid, now, "Admitted", "False", reason, "The workload was evicted"),
                    new NewEvent(uid, now, "Requeued", "False", reason, backoffMessage(requeueCount, requeueAt))));
            releaseEvicted(List.of(uid), now);
        });
        return requeued;
    }

    private static String backoffMessage(int requeueCount, Instant requeueAt) {
        return "Requeued " + requeueCount + " time(s); backing off until " + requeueAt;
    }

    /**
     * Admitted or Running -> Pending and inactive (Kueue's {@code spec.active: false}): quota released, not queued
     * until activated again. DeactivationTarget says why ({@code reason}, as Kueue's RequeuingLimitExceeded or
     * MaximumExecutionTimeExceeded), Evicted with {@code evictedReason} (Kueue's DeactivatedDueTo...), and
     * {@code extra} events the caller adds (Kueue's warning event of the same name).
     */
    public Optional<Released> deactivate(UUID uid, Expected expected, Instant now, String reason,
                                         String evictedReason, String message, List<NewEvent> extra) {
        Optional<Released> deactivated = guarded("""
                WITH deactivated AS (
                    UPDATE workload w SET state = 'Pending', active = false, admission = NULL, admitted_at = NULL,
                           cluster = NULL, requeue_at = NULL, pods_ready = false, pods_ready_changed_at = NULL, %s
                    FROM (SELECT cluster AS old_cluster FROM workload WHERE uid = :uid) o
                    WHERE w.uid = :uid AND w.state IN ('Admitted', 'Running') AND %s
                    RETURNING w.uid, w.version, o.old_cluster, w.namespace, w.name),
                reasons AS (""" + storeReasons("SELECT uid, :deactivated, :message FROM deactivated") + """
                )
                SELECT * FROM deactivated""", uid, expected, now,
                Map.of("deactivated", PendingReason.Deactivated.name(), "message", message));
        deactivated.ifPresent(d -> {
            List<NewEvent> events = new ArrayList<>(List.of(
                    new NewEvent(uid, now, "DeactivationTarget", "True", reason, message),
                    new NewEvent(uid, now, "Evicted", "True", evictedReason, message),
                    new NewEvent(uid, now, "QuotaReserved", "False", evictedReason, "The workload was evicted"),
                    new NewEvent(uid, now, "Admitted", "False", evictedReason, "The workload was evicted"),
                    new NewEvent(uid, now, "Requeued", "False", "Deactivated", "The workload is deactivated")));
            events.addAll(extra);
            appendEvents(events);
            releaseEvicted(List.of(uid), now);
        });
        return deactivated;
    }

    // ---- what the cluster reports ------------------------------------------------------------

    /**
     * Kueue's PodsReady condition of a workload holding quota in {@code cluster}: true when {@code readyPods} (the
     * agent's count of ready and succeeded pods) covers every pod of its pod sets. Recorded only when it changes,
     * with its time, so the leader's timers follow (a workload whose pods stop being ready waits for recovery from
     * then). The timeline gets the changes after the first start (WaitForRecovery, Recovered); the first start is
     * the Running transition's own entry, and so is the start of a restart after a hotswap ({@code justRunning}: the
     * same observation made it Running, whose entry already says its pods are ready). Returns whether it changed.
     */
    public boolean recordPodsReady(UUID uid, String cluster, int readyPods, Instant now, boolean justRunning) {
        Optional<Map.Entry<Boolean, Boolean>> changed = jdbc.sql("""
                        UPDATE workload w SET pods_ready = d.ready, pods_ready_changed_at = :now, %s
                        FROM (SELECT uid, pods_ready_changed_at IS NOT NULL AS started_before,
                                     :ready >= (SELECT coalesce(sum((ps ->> 'count')::int), 0)
                                                FROM jsonb_array_elements(pod_sets) ps) AS ready
                              FROM workload WHERE uid = :uid) d
                        WHERE w.uid = d.uid AND w.state IN ('Admitted', 'Running') AND w.cluster = :cluster
                          AND w.pods_ready <> d.ready
                        RETURNING w.pods_ready, d.started_before""".formatted(BUMP))
                .param("uid", uid).param("cluster", cluster).param("ready", readyPods).param("now", Timestamp.from(now))
                .query((rs, i) -> Map.entry(rs.getBoolean(1), rs.getBoolean(2))).optional();
        changed.filter(Map.Entry::getValue).filter(c -> !(justRunning && c.getKey())).ifPresent(c -> appendEvents(List.of(c.getKey()
                ? new NewEvent(uid, now, "PodsReady", "True", "Recovered", "All pods are ready again (" + readyPods + ")")
                : new NewEvent(uid, now, "PodsReady", "False", "WaitForRecovery",
                "At least one pod has stopped being ready (" + readyPods + " ready)"))));
        return changed.isPresent();
    }

    /**
     * Admitted -> Running when the pods run where the admission placed them: in its cluster and, for a
     * workload given whole node pools, on exactly those pools. Right after a hotswap the workload is
     * Admitted on its new pools while its old pods may still run on the old ones; that is not the
     * replacement running.
     */
    public boolean markRunning(UUID uid, String cluster, List<String> nodePools, Instant now, String message) {
        boolean running = jdbc.sql("""
                UPDATE workload w SET state = 'Running', %s
                WHERE w.uid = :uid AND w.state = 'Admitted' AND (w.cluster IS NULL OR w.cluster = :cluster)
                  AND coalesce((SELECT array_agg(DISTINCT p ORDER BY p)
                                FROM jsonb_array_elements(w.admission -> 'podSetAssignments') a,
                                     jsonb_array_elements_text(coalesce(a -> 'nodePools', '[]')) p), '{}')
                      IN ('{}', :pools::text[])""".formatted(BUMP))
                .param("uid", uid).param("cluster", cluster)
                .param("pools", nodePools.stream().distinct().sorted().toArray(String[]::new))
                .update() == 1;
        if (running) {
            appendEvents(List.of(new NewEvent(uid, now, "PodsReady", "True", "PodsReady", message)));
        }
        return running;
    }

    /** A JobSet's end as its cluster reports it: the workload's terminal state, the reason and message of its timeline. */
    public record Ending(UUID uid, WorkloadState outcome, String reason, String message) {
    }

    /**
     * Admitted or Running -> Finished or Failed as clusters report their JobSets ended, quota released; in three
     * statements however many end (a FULL report repeats every ended JobSet of its cluster). Returns the workloads
     * that ended now, in the order given; the others had ended already or never ran.
     */
    public List<UUID> end(List<Ending> endings, Instant now) {
        if (endings.isEmpty()) {
            return List.of();
        }
        Set<UUID> ended = new HashSet<>(jdbc.sql("""
                        WITH ended AS (
                            UPDATE workload w SET state = e.outcome, finished_at = :now, %s
                            FROM unnest(:uids::uuid[], :outcomes::text[]) AS e(uid, outcome)
                            WHERE w.uid = e.uid AND w.state IN ('Admitted', 'Running')
                            RETURNING w.uid),
                        reasons AS (%s)
                        SELECT uid FROM ended""".formatted(BUMP, forgetReasons("ended")))
                .param("uids", endings.stream().map(Ending::uid).toArray(UUID[]::new))
                .param("outcomes", endings.stream().map(e -> e.outcome().name()).toArray(String[]::new))
                .param("now", Timestamp.from(now))
                .query(UUID.class).list());
        List<Ending> endedNow = endings.stream().filter(e -> ended.contains(e.uid())).toList();
        releaseQuota(endedNow.stream().map(Ending::uid).toList());
        appendEvents(endedNow.stream().map(e -> new NewEvent(e.uid(), now, "Finished", "True", e.reason(), e.message()))
                .toList());
        return endedNow.stream().map(Ending::uid).toList();
    }

    /**
     * Pending -> Finished for workloads whose JobSet in {@code cluster} completed as they were evicted from it: the
     * eviction's STOP to that cluster is their latest command and the cluster reports the JobSet Completed (Kueue's
     * job reconciler finishes a workload whose job finished before it looks at an eviction). No quota to release:
     * the eviction released it; the cluster it ran in is kept, as for any finished workload. Returns those that
     * finished now.
     */
    public List<UUID> finishCompletedAfterStop(String cluster, List<Ending> endings, Instant now) {
        if (endings.isEmpty()) {
            return List.of();
        }
        Set<UUID> finished = new HashSet<>(jdbc.sql("""
                        WITH finished AS (
                            UPDATE workload w SET state = 'Finished', finished_at = :now, cluster = :cluster, %s
                            WHERE w.uid = ANY(:uids) AND w.state = 'Pending'
                              AND (SELECT c.cluster = :cluster AND c.type = 'STOP' FROM agent_command c
                                   WHERE c.workload_uid = w.uid ORDER BY c.seq DESC LIMIT 1)
                            RETURNING w.uid),
                        reasons AS (%s)
                        SELECT uid FROM finished""".formatted(BUMP, forgetReasons("finished")))
                .param("uids", endings.stream().map(Ending::uid).toArray(UUID[]::new))
                .param("cluster", cluster)
                .param("now", Timestamp.from(now))
                .query(UUID.class).list());
        List<Ending> endedNow = endings.stream().filter(e -> finished.contains(e.uid())).toList();
        appendEvents(endedNow.stream().map(e -> new NewEvent(e.uid(), now, "Finished", "True", e.reason(), e.message()))
                .toList());
        return endedNow.stream().map(Ending::uid).toList();
    }

    /**
     * How an observed workload stands where a cluster's observation could change it: Admitted or Running, in
     * {@code cluster} (null: not placed in one yet), with whether all of its {@code pods} were ready when last told.
     */
    public record RunState(WorkloadState state, String cluster, boolean podsReady, int pods) {

        /** Whether {@code readyPods} ready pods would change what is recorded of its readiness. */
        public boolean readinessChangedBy(int readyPods) {
            return podsReady != readyPods >= pods;
        }
    }

    /**
     * The run states of those of {@code uids} that are Admitted or Running, in one statement: a report lists every
     * JobSet of its cluster, most of them long ended, and only these can an observation change. Up to
     * {@link #LOOKED_UP} uids are looked up one by one in the primary key; more (a FULL report of a cluster that keeps
     * its ended JobSets) are matched against every Admitted or Running workload, read in one pass: 50,000 lookups held
     * the writers' lock for 1.6 s in the large-scale benchmark.
     */
    public Map<UUID, RunState> runStates(Collection<UUID> uids) {
        Map<UUID, RunState> states = new HashMap<>();
        if (uids.isEmpty()) {
            return states;
        }
        boolean lookUp = uids.size() <= LOOKED_UP;
        Set<UUID> wanted = lookUp ? Set.of() : new HashSet<>(uids);
        jdbc.sql("""
                        SELECT uid, state, cluster, pods_ready,
                               (SELECT coalesce(sum((ps ->> 'count')::int), 0) FROM jsonb_array_elements(pod_sets) ps)
                        FROM workload WHERE state IN ('Admitted', 'Running')""" + (lookUp ? " AND uid = ANY(:uids)" : ""))
                .params(lookUp ? Map.of("uids", uids.toArray(UUID[]::new)) : Map.of())
                .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), new RunState(
                        WorkloadState.valueOf(rs.getString(2)), rs.getString(3), rs.getBoolean(4), rs.getInt(5))))
                .list().stream().filter(e -> lookUp || wanted.contains(e.getKey()))
                .forEach(e -> states.put(e.getKey(), e.getValue()));
        return states;
    }

    /** The most uids {@link #runStates} looks up one by one. */
    static final int LOOKED_UP = 1_000;

    // ---- what the user does -----------------------------------------------------------------

    /**
     * Finished with reason Cancelled, quota released at once, its timeline naming {@code actor}; false when
     * it had finished or failed already.
     */
    public boolean cancel(UUID uid, Instant now, String actor) {
        boolean cancelled = jdbc.sql("""
                WITH cancelled AS (
                    UPDATE workload w SET state = 'Finished', finished_at = ?, %s
                    WHERE w.uid = ? AND w.state NOT IN ('Finished', 'Failed') RETURNING w.uid),
                reasons AS (%s)
                SELECT count(*) FROM cancelled""".formatted(BUMP, forgetReasons("cancelled")))
                .params(Timestamp.from(now), uid).query(Integer.class).single() == 1;
        if (cancelled) {
            releaseQuota(List.of(uid));
            appendEvents(List.of(new NewEvent(uid, now, "Finished", "True", "Cancelled", "Cancelled by " + actor)));
        }
        return cancelled;
    }

    /**
     * Frees a finished workload's name (Kubernetes' delete): the row and its history stay under its uid; a new
     * workload may take the name. The caller holds {@link #lockChanges()}.
     */
    public void release(UUID uid, Instant now) {
        jdbc.sql("UPDATE workload w SET deleted_at = ?, %s WHERE w.uid = ? AND w.deleted_at IS NULL".formatted(BUMP))
                .params(Timestamp.from(now), uid).update();
    }

    /**
     * What a user changes of a submitted workload: Kueue's spec.active, its priority with its class, and when it last
     * wrote a checkpoint (null when its manifest does not say).
     */
    public record Change(boolean active, String priorityClassName, int priority, String manifest,
                         Instant lastCheckpoint) {
    }

    /**
     * Sets a workload's active flag and priority, and the stored manifest that says them, if it is still at the
     * version {@code before} was read at and has not ended. Deactivating keeps a pending workload out of its
     * queue (pending reason Deactivated) and leaves an admitted one to the scheduling loop, which evicts it;
     * activating queues it again at its queue timestamp, with its requeueState reset (as Kueue does for a
     * workload deactivated by the requeuing limit, so that it gets its retries again). The timeline names
     * {@code actor}: Evicted with reason Deactivated, Requeued with reason Reactivated (Kueue's), PriorityChanged.
     * Empty when it changed meanwhile.
     */
    public Optional<Long> change(WorkloadRow before, Change change, Instant now, String actor) {
        Optional<Long> version = jdbc.sql("""
                        WITH changed AS (
                            UPDATE workload w SET active = :active, priority_class_name = :className,
                                   priority = :priority, manifest = :manifest::jsonb, last_checkpoint = :checkpoint,
                                   requeue_count = CASE WHEN :active AND NOT w.active THEN 0 ELSE w.requeue_count END,
                                   requeue_at = CASE WHEN :active AND NOT w.active THEN NULL ELSE w.requeue_at END, %s
                            FROM (SELECT active AS was_active FROM workload WHERE uid = :uid) o
                            WHERE w.uid = :uid AND w.version = :version AND w.state NOT IN ('Finished', 'Failed')
                            RETURNING w.uid, w.version, w.state, o.was_active),
                        deactivated AS (%s),
                        activated AS (%s)
                        SELECT version FROM changed""".formatted(BUMP,
                        storeReasons("SELECT uid, :deactivated, :deactivatedMessage FROM changed"
                                + " WHERE state = 'Pending' AND NOT :active"),
                        forgetReasons("(SELECT uid FROM changed WHERE state = 'Pending' AND :active AND NOT was_active)")))
                .param("active", change.active()).param("className", change.priorityClassName())
                .param("priority", change.priority()).param("manifest", change.manifest())
                .param("checkpoint", change.lastCheckpoint() == null ? null : Timestamp.from(change.lastCheckpoint()))
                .param("deactivated", PendingReason.Deactivated.name()).param("deactivatedMessage", DEACTIVATED_MESSAGE)
                .param("uid", before.uid()).param("version", before.version())
                .query(Long.class).optional();
        if (version.isEmpty()) {
            return version;
        }
        List<NewEvent> events = new ArrayList<>();
        UUID uid = before.uid();
        if (before.lifecycle().active() && !change.active()) {
            events.add(new NewEvent(uid, now, "Evicted", "True", EvictionReason.Deactivated.name(),
                    DEACTIVATED_MESSAGE + " by " + actor));
            if (before.state() == WorkloadState.Pending) {
                events.add(new NewEvent(uid, now, "Requeued", "False", EvictionReason.Deactivated.name(),
                        DEACTIVATED_MESSAGE));
            }
        } else if (!before.lifecycle().active() && change.active()) {
            events.add(new NewEvent(uid, now, "Requeued", "True", "Reactivated", "The workload was reactivated by "
                    + actor));
        }
        if (before.priority() != change.priority()
                || !Objects.equals(before.priorityClassName(), change.priorityClassName())) {
            events.add(new NewEvent(uid, now, "PriorityChanged", "True", "PriorityClassChanged", "Priority "
                    + before.priority() + " (" + before.priorityClassName() + ") changed to " + change.priority()
                    + " (" + change.priorityClassName() + ") by " + actor));
        }
        appendEvents(events);
        return version;
    }

    /**
     * Sets the annotation {@code platform.dev/last-checkpoint} of each workload to the time its cluster reported, as a
     * merge patch of it would, where that time is later than the stored one: a JobSet started with the annotation of
     * its submission does not undo a later checkpoint set through the API. Ended workloads keep theirs. One statement,
     * compared with the checkpoint column, however many a report carries. Returns the workloads changed.
     */
    public List<UUID> recordCheckpoints(Map<UUID, Instant> reported) {
        if (reported.isEmpty()) {
            return List.of();
        }
        List<Map.Entry<UUID, Instant>> rows = List.copyOf(reported.entrySet());
        return jdbc.sql("""
                        UPDATE workload w
                        SET manifest = jsonb_set(w.manifest, '{metadata,annotations}',
                                coalesce(w.manifest -> 'metadata' -> 'annotations', '{}'::jsonb)
                                || jsonb_build_object(:key::text, c.at)),
                            last_checkpoint = c.at::timestamptz, %s
                        FROM unnest(:uids::uuid[], :ats::text[]) AS c(uid, at)
                        WHERE w.uid = c.uid AND w.state NOT IN ('Finished', 'Failed')
                          AND (w.last_checkpoint IS NULL OR w.last_checkpoint < c.at::timestamptz)
                        RETURNING w.uid""".formatted(BUMP))
                .param("key", PreemptionAnnotations.LAST_CHECKPOINT)
                .param("uids", rows.stream().map(Map.Entry::getKey).toArray(UUID[]::new))
                .param("ats", rows.stream().map(e -> e.getValue().toString()).toArray(String[]::new))
                .query((rs, i) -> rs.getObject(1, UUID.class)).list();
    }

    // ---- history ----------------------------------------------------------------------------

    /**
     * Deletes up to {@code batch} workloads that finished or failed before {@code cutoff}, oldest first; their
     * timeline, quota and cluster rows go with them (ON DELETE CASCADE). Returns how many.
     */
    public int deleteFinishedBefore(Instant cutoff, int batch) {
        return jdbc.sql("""
                WITH removed AS (
                    DELETE FROM workload WHERE uid IN (
                        SELECT uid FROM workload WHERE state IN ('Finished', 'Failed') AND finished_at < :cutoff
                        ORDER BY finished_at LIMIT :batch)
                    RETURNING change_seq),
                compacted AS (
                    INSERT INTO workload_compaction (id, revision) SELECT true, max(change_seq) FROM removed
                    HAVING count(*) > 0
                    ON CONFLICT (id) DO UPDATE SET revision = greatest(workload_compaction.revision, EXCLUDED.revision))
                SELECT count(*) FROM removed""")
                .param("cutoff", Timestamp.from(cutoff)).param("batch", batch).query(Integer.class).single();
    }

    /** The revision below which the workloads' change log is no longer whole (history retention removed rows). */
    public long compactedRevision() {
        return jdbc.sql("SELECT coalesce(max(revision), 0) FROM workload_compaction").query(Long.class).single();
    }

    /**
     * Appends timeline entries in one statement, each workload's in their order (callers add the entries a
     * transition does not say itself): one multi-row INSERT from arrays, so a cycle's hundred thousand entries cost
     * one round trip. In workload order: the timeline index is keyed by workload, and entries inserted in its key
     * order fill each of its pages at once instead of visiting every page many times (a quarter less time for a
     * hundred thousand; a timeline is read per workload, so the order across workloads says nothing).
     */
    public void appendEvents(List<NewEvent> events) {
        if (events.isEmpty()) {
            return;
        }
        jdbc.sql("""
                        INSERT INTO workload_event (workload_uid, at, type, status, reason, message)
                        SELECT uid, at, type, status, reason, message
                        FROM unnest(:uids::uuid[], :ats::timestamptz[], :types::text[], :statuses::text[],
                                    :reasons::text[], :messages::text[])
                             WITH ORDINALITY AS e(uid, at, type, status, reason, message, n)
                        ORDER BY uid, n""")
                .param("uids", events.stream().map(NewEvent::uid).toArray(UUID[]::new))
                .param("ats", events.stream().map(e -> e.at().toString()).toArray(String[]::new))
                .param("types", events.stream().map(NewEvent::type).toArray(String[]::new))
                .param("statuses", events.stream().map(NewEvent::status).toArray(String[]::new))
                .param("reasons", events.stream().map(NewEvent::reason).toArray(String[]::new))
                .param("messages", events.stream().map(NewEvent::message).toArray(String[]::new))
                .update();
    }

    /**
     * What every eviction does after its own conditions: the quota rows go, and a workload whose PodsReady
     * condition was True gets Kueue's PodsReady=False (WaitForStart) for a workload no longer admitted, so a
     * requeued workload does not show the pods it ran as ready.
     */
    private void releaseEvicted(List<UUID> uids, Instant now) {
        if (uids.isEmpty()) {
            return;
        }
        releaseQuota(uids);
        appendEvents(jdbc.sql("""
                        SELECT workload_uid FROM (
                            SELECT DISTINCT ON (workload_uid) workload_uid, status FROM workload_event
                            WHERE workload_uid = ANY(:uids) AND type = 'PodsReady'
                            ORDER BY workload_uid, at DESC, id DESC) latest
                        WHERE status = 'True'""")
                .param("uids", uids.toArray(UUID[]::new))
                .query((rs, i) -> new NewEvent(rs.getObject(1, UUID.class), now, "PodsReady", "False", "WaitForStart",
                        "Not all pods are ready or succeeded"))
                .list());
    }

    /** Its quota rows go, and with them its reservation awaiting admission checks (its checks stay, for the next). */
    private void releaseQuota(List<UUID> uids) {
        if (!uids.isEmpty()) {
            jdbc.sql("DELETE FROM workload_usage WHERE workload_uid = ANY(:uids)")
                    .param("uids", uids.toArray(UUID[]::new)).update();
            jdbc.sql("DELETE FROM workload_check_reservation WHERE workload_uid = ANY(:uids)")
                    .param("uids", uids.toArray(UUID[]::new)).update();
        }
    }

    /**
     * A CTE's DELETE of the reasons of the workloads {@code changed} (a CTE or subquery with column uid) names. Why a
     * workload waits is a row of its own narrow table (migration V37) while a reason is recorded; a transition that
     * sets or clears it writes that table in its own statement, as a data-modifying CTE over the rows it changed.
     */
    private static String forgetReasons(String changed) {
        return "DELETE FROM workload_pending_reason r USING " + changed + " c WHERE r.workload_uid = c.uid";
    }

    /** A CTE's upsert of the reasons {@code select} returns, as (uid, reason, message), over those stored. */
    private static String storeReasons(String select) {
        return "INSERT INTO workload_pending_reason (workload_uid, reason, message) " + select
                + " ON CONFLICT (workload_uid) DO UPDATE SET reason = excluded.reason, message = excluded.message";
    }

    /**
     * One update guarded as {@code expected} says: {@code sql} takes the bump, then the guard, for its two
     * {@code %s}; it may use {@code :uid} and {@code :now}, and returns the row as {@link Released}.
     */
    private Optional<Released> guarded(String sql, UUID uid, Expected expected, Instant now) {
        return guarded(sql, uid, expected, now, Map.of());
    }

    /** {@link #guarded(String, UUID, Expected, Instant)} with more named parameters. */
    private Optional<Released> guarded(String sql, UUID uid, Expected expected, Instant now,
                                       Map<String, Object> params) {
        JdbcClient.StatementSpec statement;
        if (expected instanceof Expected.AtVersion v) {
            statement = jdbc.sql(sql.formatted(BUMP, "w.version = :expected")).param("expected", v.version());
        } else {
            Expected.LatestCommand c = (Expected.LatestCommand) expected;
            statement = jdbc.sql(sql.formatted(BUMP, """
                            w.state = 'Admitted' AND w.cluster = :cluster
                            AND NOT EXISTS (SELECT 1 FROM agent_command later
                                            WHERE later.workload_uid = w.uid AND later.seq > :seq)"""))
                    .param("cluster", c.cluster()).param("seq", c.commandSeq());
        }
        return statement.params(params).param("uid", uid).param("now", Timestamp.from(now))
                .query((rs, i) -> new Released(rs.getObject(1, UUID.class), rs.getLong(2), rs.getString(3),
                        rs.getString(4), rs.getString(5))).optional();
    }
}
