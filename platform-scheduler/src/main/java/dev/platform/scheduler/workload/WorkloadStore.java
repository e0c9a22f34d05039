package dev.platform.scheduler.workload;

import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.web.KeysetCursor;
import dev.platform.scheduler.workload.WorkloadStatus.Condition;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reading workloads from PostgreSQL: single rows, lists, the scheduling loop's change feed, queue
 * positions, timelines. Every write goes through {@link WorkloadTransitions}.
 */
@Repository
public class WorkloadStore {

    private static final TypeReference<List<PodSetSpec>> POD_SETS = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final RowMapper<WorkloadRow> rowMapper;

    public WorkloadStore(JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
        this.json = json;
        this.rowMapper = rowMapper(text -> json.readValue(text, POD_SETS),
                text -> json.readValue(text, StoredAdmission.class));
    }

    /** How a {@link WorkloadRow} is read from {@link #COLUMNS}. */
    RowMapper<WorkloadRow> rows() {
        return rowMapper;
    }

    /**
     * Rows whose pod sets and admission are decoded by the given functions (from the columns' text; an admission
     * only when the row has one).
     */
    private static RowMapper<WorkloadRow> rowMapper(Function<String, List<PodSetSpec>> podSets,
                                                    Function<String, StoredAdmission> admission) {
        return (rs, i) -> new WorkloadRow(
                rs.getObject("uid", UUID.class),
                rs.getString("namespace"),
                rs.getString("name"),
                rs.getString("kind"),
                rs.getString("queue_name"),
                rs.getString("cluster_queue"),
                rs.getString("priority_class_name"),
                rs.getInt("priority"),
                WorkloadState.valueOf(rs.getString("state")),
                podSets.apply(rs.getString("pod_sets")),
                rs.getString("admission") == null ? null : admission.apply(rs.getString("admission")),
                rs.getString("pending_reason"),
                rs.getString("pending_message"),
                instant(rs.getTimestamp("queue_timestamp")),
                instant(rs.getTimestamp("created_at")),
                instant(rs.getTimestamp("admitted_at")),
                instant(rs.getTimestamp("finished_at")),
                rs.getInt("restarts"),
                rs.getLong("version"),
                rs.getLong("change_seq"),
                rs.getString("exclusive_topology"),
                rs.getString("cluster"),
                (Integer) rs.getObject("max_restarts"),
                (Integer) rs.getObject("maximum_execution_time_seconds"),
                new WorkloadRow.Lifecycle(rs.getBoolean("active"), rs.getInt("requeue_count"),
                        instant(rs.getTimestamp("requeue_at")), rs.getBoolean("pods_ready"),
                        instant(rs.getTimestamp("pods_ready_changed_at"))),
                rs.getString("submitted_by"),
                instant(rs.getTimestamp("last_checkpoint")));
    }

    /** The columns of a {@link WorkloadRow}, read from {@link #WORKLOADS}. */
    static final String COLUMNS = """
            uid, namespace, name, kind, queue_name, cluster_queue, priority_class_name, priority, state,
            pod_sets::text AS pod_sets, admission::text AS admission, pending.reason AS pending_reason,
            pending.message AS pending_message,
            queue_timestamp, created_at, admitted_at, finished_at, restarts, version, change_seq, exclusive_topology,
            cluster, max_restarts, maximum_execution_time_seconds, active, requeue_count, requeue_at, pods_ready,
            pods_ready_changed_at, submitted_by, last_checkpoint""";

    /** Workloads with why each waits (a row of its own table while it has a reason, joined on its primary key). */
    private static final String WORKLOADS =
            "workload LEFT JOIN workload_pending_reason pending ON pending.workload_uid = workload.uid";

    /**
     * Whether the ClusterQueue named by the SQL expression {@code %s} orders by LocalQueue usage: its admissionScope
     * asks for it (the leader stores no scores when the settings turn admission fair sharing off).
     */
    private static final String USES_ADMISSION_FAIR_SHARING = """
            coalesce((SELECT c.spec -> 'admissionScope' ->> 'admissionMode' = 'UsageBasedAdmissionFairSharing'
                      FROM cluster_queue c WHERE c.name = %s), false)""";

    /** The stored admission fair sharing score of workload {@code %s}'s LocalQueue; 0 when it has none, as in the core. */
    private static final String LOCAL_QUEUE_SCORE = """
            coalesce((SELECT u.score FROM local_queue_usage u
                      WHERE u.namespace = %1$s.namespace AND u.local_queue = %1$s.queue_name), 0)""";

    /** Forecast columns of {@link #FORECAST_JOIN}, all prefixed {@code forecast_}. */
    private static final String FORECAST_COLUMNS = """
            f.estimated_admission_at AS forecast_at, f.admission_p10 AS forecast_p10,
            f.admission_p90 AS forecast_p90, f.basis AS forecast_basis, f.message AS forecast_message,
            f.admission_if_nothing_arrives AS forecast_alone, f.arrival_basis AS forecast_arrival_basis,
            coalesce(q.computed_at, f.computed_at) AS forecast_computed_at, coalesce(q.stale, false) AS forecast_stale
            """;

    /** Why each workload of a {@code page} waits, from {@link #PAGE_PENDING_REASON_JOIN}. */
    private static final String PAGE_PENDING_REASON_COLUMNS =
            "pending.reason AS pending_reason, pending.message AS pending_message, ";

    /**
     * Joins a {@code page} of uids to why each waits, after the page is cut: the queue's order is read from the
     * workload's indexes and only the page's reasons are looked up.
     */
    private static final String PAGE_PENDING_REASON_JOIN = """

            LEFT JOIN workload_pending_reason pending ON pending.workload_uid = page.uid""";

    /** Joins a {@code page} of uids to their forecasts and their ClusterQueue's forecast time. */
    private static final String FORECAST_JOIN = """

            LEFT JOIN workload_forecast f ON f.workload_uid = page.uid
            LEFT JOIN cluster_queue_forecast q ON q.cluster_queue = f.cluster_queue
            """;

    /**
     * The workload of that name: the live one, or when the name is free, the one that last had it (deleted, kept
     * with its history): what a read by name shows.
     */
    public Optional<WorkloadRow> find(String namespace, String name) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS + " WHERE namespace = ? AND name = ?"
                        + " ORDER BY deleted_at IS NOT NULL, created_at DESC LIMIT 1")
                .params(namespace, name).query(rowMapper).optional();
    }

    /** The workload that holds the name now; empty when none does (never submitted, or deleted). */
    public Optional<WorkloadRow> findLive(String namespace, String name) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE namespace = ? AND name = ? AND deleted_at IS NULL")
                .params(namespace, name).query(rowMapper).optional();
    }

    /** Which of {@code uids} are deleted (their names freed). */
    public Set<UUID> deleted(Collection<UUID> uids) {
        if (uids.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql("SELECT uid FROM workload WHERE uid = ANY(?) AND deleted_at IS NOT NULL")
                .param(uids.toArray(UUID[]::new)).query(UUID.class).list());
    }

    public Optional<WorkloadRow> find(UUID uid) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS + " WHERE uid = ?").param(uid).query(rowMapper)
                .optional();
    }

    public Optional<WorkloadRow> findByIdempotencyKey(String namespace, String key) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS + " WHERE namespace = ? AND idempotency_key = ?")
                .params(namespace, key).query(rowMapper).optional();
    }

    /**
     * What {@code kubectl apply} compares of an object: everything but its status and what the server sets in its
     * metadata (uid, resourceVersion, generation, creationTimestamp, managedFields), so an object read back with
     * {@code Accept: application/yaml} applies unchanged; nor the namespace, which found the object compared (a
     * workload submitted to {@code /namespaces/{ns}/workloads} may be stored without it). A jsonb expression over
     * {@code %s}.
     */
    private static final String DESIRED = "((%s) - 'status') #- '{metadata,namespace}' #- '{metadata,uid}'"
            + " #- '{metadata,resourceVersion}'"
            + " #- '{metadata,generation}' #- '{metadata,creationTimestamp}' #- '{metadata,managedFields}'";

    /** The workloads with these uids, by uid, in one statement. */
    public Map<UUID, WorkloadRow> findAll(Collection<UUID> uids) {
        Map<UUID, WorkloadRow> rows = new HashMap<>();
        jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS + " WHERE uid = ANY(?)").param(uids.toArray(UUID[]::new))
                .query(rowMapper).list().forEach(row -> rows.put(row.uid(), row));
        return rows;
    }

    /**
     * What a group of submissions could collide with, in one statement: the workloads stored under these
     * Idempotency-Keys (namespace and key), by {@code namespace/key}, and which of these names (namespace and name)
     * a workload has, as {@code namespace/name}.
     */
    public Collisions collisions(List<Map.Entry<String, String>> names, List<Map.Entry<String, String>> keys) {
        Collisions found = new Collisions(new HashMap<>(), new HashSet<>());
        if (names.isEmpty() && keys.isEmpty()) {
            return found;
        }
        jdbc.sql("SELECT true AS by_key, idempotency_key AS stored_key, " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE (namespace, idempotency_key) IN"
                        + " (SELECT * FROM unnest(:keyNamespaces::text[], :keys::text[]))"
                        + " UNION ALL SELECT false, NULL, " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE (namespace, name) IN (SELECT * FROM unnest(:namespaces::text[], :names::text[]))"
                        + " AND deleted_at IS NULL")
                .param("keyNamespaces", keys.stream().map(Map.Entry::getKey).toArray(String[]::new))
                .param("keys", keys.stream().map(Map.Entry::getValue).toArray(String[]::new))
                .param("namespaces", names.stream().map(Map.Entry::getKey).toArray(String[]::new))
                .param("names", names.stream().map(Map.Entry::getValue).toArray(String[]::new))
                .query((rs, i) -> {
                    WorkloadRow row = rowMapper.mapRow(rs, i);
                    if (rs.getBoolean("by_key")) {
                        found.byKey().put(row.namespace() + "/" + rs.getString("stored_key"), row);
                    } else {
                        found.names().add(row.namespace() + "/" + row.name());
                    }
                    return row;
                }).list();
        return found;
    }

    /**
     * The workloads stored under a group's keys, by {@code namespace/key}, and its names taken, as
     * {@code namespace/name}.
     */
    public record Collisions(Map<String, WorkloadRow> byKey, Set<String> names) {
    }

    /** Whether the stored manifest equals {@code manifest} as an applied object (jsonb equality ignores key order). */
    public boolean sameManifest(UUID uid, Map<String, Object> manifest) {
        return jdbc.sql("SELECT " + DESIRED.formatted("manifest") + " = " + DESIRED.formatted("?::jsonb")
                        + " FROM workload WHERE uid = ?")
                .params(json.writeValueAsString(manifest), uid).query(Boolean.class).single();
    }

    /** Whether two manifests (JSON texts) are the same applied object. */
    public boolean sameObject(String a, String b) {
        return jdbc.sql("SELECT " + DESIRED.formatted("?::jsonb") + " = " + DESIRED.formatted("?::jsonb"))
                .params(a, b).query(Boolean.class).single();
    }

    /** The original manifest as stored. */
    public Optional<String> manifest(UUID uid) {
        return jdbc.sql("SELECT manifest::text FROM workload WHERE uid = ?").param(uid).query(String.class).optional();
    }

    /** The priority boosts of {@code uids} (Kueue's annotation on their manifests), keyed by uid; absent when none. */
    public Map<UUID, Integer> priorityBoosts(Collection<UUID> uids) {
        Map<UUID, Integer> boosts = new HashMap<>();
        annotations(uids, PreemptionAnnotations.PRIORITY_BOOST).forEach((uid, text) -> boosts.put(uid, Integer.parseInt(text)));
        return boosts;
    }

    /** One annotation of the manifests of {@code uids}, keyed by uid; absent where the manifest has none. */
    private Map<UUID, String> annotations(Collection<UUID> uids, String key) {
        Map<UUID, String> values = new HashMap<>();
        if (uids.isEmpty()) {
            return values;
        }
        jdbc.sql("SELECT uid, manifest -> 'metadata' -> 'annotations' ->> ? AS value FROM workload"
                        + " WHERE uid = ANY(?) AND manifest -> 'metadata' -> 'annotations' ->> ? IS NOT NULL")
                .params(key, uids.toArray(UUID[]::new), key)
                .query((rs, i) -> Map.entry(rs.getObject("uid", UUID.class), rs.getString("value")))
                .list().forEach(e -> values.put(e.getKey(), e.getValue()));
        return values;
    }

    /** The original manifests of {@code uids}, keyed by uid; a uid without a row is absent. */
    public Map<UUID, String> manifests(Collection<UUID> uids) {
        Map<UUID, String> manifests = new HashMap<>();
        jdbc.sql("SELECT uid, manifest::text FROM workload WHERE uid = ANY(?)")
                .param(uids.toArray(UUID[]::new))
                .query(rs -> {
                    manifests.put(rs.getObject(1, UUID.class), rs.getString(2));
                });
        return manifests;
    }

    /** The kind and apiVersion a workload was submitted as. */
    public record Owner(String kind, String apiVersion) {
    }

    /** The kind and apiVersion of each of {@code uids}, one statement for a page. */
    public Map<UUID, Owner> owners(Collection<UUID> uids) {
        Map<UUID, Owner> owners = new HashMap<>();
        if (!uids.isEmpty()) {
            jdbc.sql("SELECT uid, kind, manifest ->> 'apiVersion' FROM workload WHERE uid = ANY(?)")
                    .param(uids.toArray(UUID[]::new))
                    .query(rs -> {
                        owners.put(rs.getObject(1, UUID.class), new Owner(rs.getString(2), rs.getString(3)));
                    });
        }
        return owners;
    }

    /** Workloads waiting for quota, counted per ClusterQueue and pending reason (Kueue's unadmitted gauge). */
    public List<WaitingCount> waitingCounts() {
        return jdbc.sql("SELECT cluster_queue, coalesce(pending.reason, ''), count(*) FROM " + WORKLOADS
                        + " WHERE state IN ('Pending', 'Evicted') AND active AND cluster_queue IS NOT NULL GROUP BY 1, 2")
                .query((rs, i) -> new WaitingCount(rs.getString(1), rs.getString(2), rs.getLong(3)))
                .list();
    }

    public record WaitingCount(String clusterQueue, String reason, long count) {
    }

    /**
     * One page of a namespace's workloads, newest first, after {@code cursor} (keyset pagination on
     * created_at, uid).
     */
    public List<WorkloadRow> list(String namespace, WorkloadState state, String queueName, KeysetCursor<UUID> cursor,
                                  int limit) {
        return list(List.of(namespace), state, queueName, cursor, limit);
    }

    /** The same, over several namespaces (a team's; null for every namespace), newest first. */
    public List<WorkloadRow> list(Collection<String> namespaces, WorkloadState state, String queueName,
                                  KeysetCursor<UUID> cursor, int limit) {
        return list(namespaces, state, queueName, null, cursor, limit);
    }

    /** The same, of the workloads {@code submittedBy} submitted (null: anyone's): the console's "My workloads". */
    public List<WorkloadRow> list(Collection<String> namespaces, WorkloadState state, String queueName,
                                  String submittedBy, KeysetCursor<UUID> cursor, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + WORKLOADS + " WHERE true");
        Map<String, Object> params = new HashMap<>();
        if (namespaces != null) {
            sql.append(" AND namespace = ANY(:namespaces)");
            params.put("namespaces", namespaces.toArray(String[]::new));
        }
        if (submittedBy != null) {
            sql.append(" AND submitted_by = :submittedBy");
            params.put("submittedBy", submittedBy);
        }
        if (state != null) {
            sql.append(" AND state = :state");
            params.put("state", state.name());
        }
        if (queueName != null) {
            sql.append(" AND queue_name = :queue");
            params.put("queue", queueName);
        }
        if (cursor != null) {
            sql.append(" AND (created_at, uid) < (:cursorAt, :cursorUid)");
            params.put("cursorAt", Timestamp.from(cursor.at()));
            params.put("cursorUid", cursor.key());
        }
        sql.append(" ORDER BY created_at DESC, uid DESC LIMIT :limit");
        params.put("limit", limit);
        return jdbc.sql(sql.toString()).params(params).query(rowMapper).list();
    }

    /**
     * Workloads in key order (namespace, then name), as a Kubernetes list pages them: of {@code kinds} (null: every
     * kind), in {@code namespace} (null: all), admitted to {@code clusterQueue} when given, after the key
     * ({@code afterNamespace}, {@code afterName}) when given.
     */
    public List<WorkloadRow> listByKey(Collection<String> kinds, String namespace, String clusterQueue,
                                       String afterNamespace, String afterName, int limit) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM " + WORKLOADS
                + " WHERE deleted_at IS NULL");
        Map<String, Object> params = new HashMap<>();
        if (kinds != null) {
            sql.append(" AND kind = ANY(:kinds)");
            params.put("kinds", kinds.toArray(String[]::new));
        }
        if (namespace != null) {
            sql.append(" AND namespace = :namespace");
            params.put("namespace", namespace);
        }
        if (clusterQueue != null) {
            sql.append(" AND cluster_queue = :clusterQueue AND admission IS NOT NULL");
            params.put("clusterQueue", clusterQueue);
        }
        if (afterName != null) {
            sql.append(" AND (namespace, name) > (:afterNamespace, :afterName)");
            params.put("afterNamespace", afterNamespace);
            params.put("afterName", afterName);
        }
        sql.append(" ORDER BY namespace, name LIMIT :limit");
        params.put("limit", limit);
        return jdbc.sql(sql.toString()).params(params).query(rowMapper).list();
    }

    /** Workloads changed after {@code afterSeq}, in change order; the scheduling loop's feed. */
    public List<WorkloadRow> changedSince(long afterSeq, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE change_seq > ? ORDER BY change_seq LIMIT ?")
                .params(afterSeq, limit).query(rowMapper).list();
    }

    public long latestChange() {
        return jdbc.sql("SELECT coalesce(max(change_seq), 0) FROM workload").query(Long.class).single();
    }

    /**
     * Every workload that is waiting or holds quota, for rebuilding the scheduler's state. Pod sets and admissions
     * are decoded once per distinct stored text and the result shared by the rows (read only, as every row's is): a
     * backlog holds many copies of few shapes, and decoding each row's JSON was half of the rebuild's CPU.
     */
    public List<WorkloadRow> active() {
        Map<String, List<PodSetSpec>> podSets = new HashMap<>();
        Map<String, StoredAdmission> admissions = new HashMap<>();
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE state IN ('Pending', 'Admitted', 'Running', 'Evicted') ORDER BY change_seq")
                .query(rowMapper(text -> podSets.computeIfAbsent(text, t -> List.copyOf(json.readValue(t, POD_SETS))),
                        text -> admissions.computeIfAbsent(text, t -> json.readValue(t, StoredAdmission.class))))
                .list();
    }

    /**
     * The most recently finished workloads that ever held quota, at most {@code limit}, among the changes up to
     * {@code upToChangeSeq}: the forecast's runtime history (index workload_finished_history_idx).
     */
    public List<WorkloadRow> finishedForHistory(long upToChangeSeq, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE state = 'Finished' AND admitted_at IS NOT NULL"
                        + " AND change_seq <= ? ORDER BY finished_at DESC, uid LIMIT ?")
                .params(upToChangeSeq, limit).query(rowMapper).list();
    }

    /**
     * Workloads submitted to a LocalQueue since {@code since} and seen by the change feed up to
     * {@code upToChangeSeq}, the latest {@code limit}, any state: the forecast's submission history.
     */
    public List<WorkloadRow> submittedSince(Instant since, long upToChangeSeq, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE created_at >= ? AND queue_name IS NOT NULL"
                        + " AND change_seq <= ? ORDER BY created_at DESC, uid DESC LIMIT ?")
                .params(Timestamp.from(since), upToChangeSeq, limit).query(rowMapper).list();
    }

    /**
     * Zero-based positions of pending workloads in their ClusterQueue and LocalQueue, in the
     * scheduler's order (priority, then queue timestamp, then uid; in a ClusterQueue under admission
     * fair sharing, the LocalQueue's score first), one statement for a page.
     * <p>
     * A position near the end of its queue is the queue's pending count, kept by the counting triggers, less what is
     * behind the workload and the evicted workloads ahead of it (the counters count those too, the positions do
     * not): a submission answered at the end of a queue 30,000 deep reads the few rows behind it, not the 30,000
     * ahead, nor the first {@link #COUNTED} of them. One near the head is counted (at most {@link #COUNTED} rows
     * read, after as many behind it). A workload far from both ends, and
     * every workload of a ClusterQueue under admission fair sharing (whose order starts with a score no index
     * holds), has every workload ahead of it counted.
     */
    public Map<UUID, Positions> positions(Collection<UUID> pendingUids) {
        Map<UUID, Positions> positions = new HashMap<>();
        if (pendingUids.isEmpty()) {
            return positions;
        }
        String inClusterQueue = "o.cluster_queue = w.cluster_queue";
        String inLocalQueue = "o.namespace = w.namespace AND o.queue_name = w.queue_name";
        jdbc.sql("""
                SELECT w.uid, %s AS inadmissible,
                       CASE WHEN w.cluster_queue IS NULL THEN 0
                       WHEN %s
                       THEN (SELECT count(*) FROM workload o
                             WHERE o.cluster_queue = w.cluster_queue AND o.state = 'Pending' AND o.active
                               AND NOT %s
                               AND (%s, -o.priority, o.queue_timestamp, o.uid)
                                   < (%s, -w.priority, w.queue_timestamp, w.uid))
                       WHEN cq_behind.counted < :counted
                       THEN (SELECT c.pending FROM cluster_queue_workload_count c WHERE c.cluster_queue = w.cluster_queue)
                            - 1 - cq_behind.counted - (%s) - (%s)
                       ELSE (SELECT CASE WHEN a.counted < :counted THEN a.counted ELSE (%s) END FROM (%s) a) - (%s)
                       END AS in_cq,
                       CASE WHEN lq_behind.counted < :counted
                       THEN (SELECT l.pending FROM local_queue_workload_count l
                             WHERE l.namespace = w.namespace AND l.queue_name = w.queue_name)
                            - 1 - lq_behind.counted - (%s) - (%s)
                       ELSE (SELECT CASE WHEN a.counted < :counted THEN a.counted ELSE (%s) END FROM (%s) a) - (%s)
                       END AS in_lq
                FROM workload w
                CROSS JOIN LATERAL (%s) cq_behind
                CROSS JOIN LATERAL (%s) lq_behind
                WHERE w.uid = ANY(:uids) AND w.state = 'Pending' AND w.active""".formatted(
                        INADMISSIBLE.formatted("w"),
                        USES_ADMISSION_FAIR_SHARING.formatted("w.cluster_queue"), INADMISSIBLE.formatted("o"),
                        LOCAL_QUEUE_SCORE.formatted("o"), LOCAL_QUEUE_SCORE.formatted("w"),
                        EVICTED_AHEAD.formatted(inClusterQueue), INADMISSIBLE_AHEAD.formatted(inClusterQueue),
                        AHEAD.formatted(inClusterQueue), COUNTED_AHEAD.formatted(inClusterQueue),
                        INADMISSIBLE_AHEAD.formatted(inClusterQueue),
                        EVICTED_AHEAD.formatted(inLocalQueue), INADMISSIBLE_AHEAD.formatted(inLocalQueue),
                        AHEAD.formatted(inLocalQueue), COUNTED_AHEAD.formatted(inLocalQueue),
                        INADMISSIBLE_AHEAD.formatted(inLocalQueue),
                        COUNTED_BEHIND.formatted(inClusterQueue), COUNTED_BEHIND.formatted(inLocalQueue)))
                .param("uids", pendingUids.toArray(UUID[]::new))
                .param("counted", COUNTED)
                .query((rs, i) -> Map.entry(rs.getObject("uid", UUID.class), rs.getBoolean("inadmissible")
                        ? Positions.NONE : new Positions(rs.getInt("in_cq"), rs.getInt("in_lq"))))
                .list().forEach(e -> positions.put(e.getKey(), e.getValue()));
        return positions;
    }

    /**
     * A pending workload's zero-based positions in its ClusterQueue and LocalQueue; both null for an inadmissible
     * one ({@link PendingReason#inadmissible()}), which has none.
     */
    public record Positions(Integer inClusterQueue, Integer inLocalQueue) {
        static final Positions NONE = new Positions(null, null);
    }

    /** The reasons of {@link PendingReason#inadmissible()} as an SQL list (the partial index V40 holds the same). */
    private static final String INADMISSIBLE_REASONS = Arrays.stream(PendingReason.values())
            .filter(PendingReason::inadmissible).map(reason -> "'" + reason.name() + "'")
            .collect(Collectors.joining(", "));

    /** Workload {@code %s} waits for a reason only a configuration change removes: it has no position. */
    private static final String INADMISSIBLE = "EXISTS (SELECT 1 FROM workload_pending_reason r"
            + " WHERE r.workload_uid = %s.uid AND r.reason IN (" + INADMISSIBLE_REASONS + "))";

    /**
     * The inadmissible pending workloads ahead of {@code w} in the queue {@code %s} names: the counters and the
     * counts ahead hold them, a position does not (read from the partial index of the inadmissible, a handful).
     */
    private static final String INADMISSIBLE_AHEAD = """
            SELECT count(*) FROM workload_pending_reason r JOIN workload o ON o.uid = r.workload_uid
            WHERE r.reason IN (""" + INADMISSIBLE_REASONS + """
            ) AND %s AND o.state = 'Pending' AND o.active
              AND (o.priority > w.priority OR (o.priority = w.priority
                   AND (o.queue_timestamp, o.uid) < (w.queue_timestamp, w.uid)))""";

    /**
     * The most workloads a position reads one by one, ahead of the workload or behind it; a workload further than
     * that from both ends of its queue has every workload ahead of it counted.
     */
    static final int COUNTED = 200;

    /** The pending workloads ahead of {@code w} in the queue the condition {@code %s} names. */
    private static final String AHEAD = """
            SELECT count(*) FROM workload o
            WHERE %s AND o.state = 'Pending' AND o.active
              AND (o.priority > w.priority OR (o.priority = w.priority
                   AND (o.queue_timestamp, o.uid) < (w.queue_timestamp, w.uid)))""";

    /**
     * The pending workloads ahead of {@code w} in the queue the condition {@code %s} names, {@link #COUNTED} at most
     * (column {@code counted}): those of a higher priority, then those of its priority queued before it, each read
     * in index order from the head of the queue.
     */
    private static final String COUNTED_AHEAD = """
            SELECT count(*) AS counted FROM (
                (SELECT 1 FROM workload o
                 WHERE %1$s AND o.state = 'Pending' AND o.active AND o.priority > w.priority
                 ORDER BY o.priority DESC, o.queue_timestamp, o.uid LIMIT :counted)
                UNION ALL
                (SELECT 1 FROM workload o
                 WHERE %1$s AND o.state = 'Pending' AND o.active AND o.priority = w.priority
                   AND (o.queue_timestamp, o.uid) < (w.queue_timestamp, w.uid)
                 ORDER BY o.queue_timestamp, o.uid LIMIT :counted)
                LIMIT :counted) ahead""";

    /**
     * What the counters count (pending or evicted, active) behind {@code w} in the queue {@code %s} names,
     * {@link #COUNTED} at most (column {@code counted}): those of a lower priority, then those of its priority queued
     * after it, each read in index order from the end of the queue.
     */
    private static final String COUNTED_BEHIND = """
            SELECT count(*) AS counted FROM (
                (SELECT 1 FROM workload o
                 WHERE %1$s AND o.state IN ('Pending', 'Evicted') AND o.active AND o.priority < w.priority
                 ORDER BY o.priority, o.queue_timestamp DESC, o.uid DESC LIMIT :counted)
                UNION ALL
                (SELECT 1 FROM workload o
                 WHERE %1$s AND o.state IN ('Pending', 'Evicted') AND o.active AND o.priority = w.priority
                   AND (o.queue_timestamp, o.uid) > (w.queue_timestamp, w.uid)
                 ORDER BY o.queue_timestamp DESC, o.uid DESC LIMIT :counted)
                LIMIT :counted) behind""";

    /** The evicted, active workloads ahead of {@code w} in the queue {@code %s} names: counted, but not pending. */
    private static final String EVICTED_AHEAD = """
            SELECT count(*) FROM workload o
            WHERE %s AND o.state = 'Evicted' AND o.active
              AND (o.priority > w.priority OR (o.priority = w.priority
                   AND (o.queue_timestamp, o.uid) < (w.queue_timestamp, w.uid)))""";

    /**
     * A ClusterQueue's pending workloads in queue order with both positions: one window query over
     * the queue's slice of the pending index. A LocalQueue feeds exactly one ClusterQueue, so its
     * positions are exact within that slice.
     */
    public List<PendingWorkloadsController.PendingWorkload> pendingInClusterQueue(String clusterQueue, int offset,
                                                                                  int limit) {
        boolean byUsage = jdbc.sql("SELECT " + USES_ADMISSION_FAIR_SHARING.formatted("?")).param(clusterQueue)
                .query(Boolean.class).single();
        String first = byUsage ? LOCAL_QUEUE_SCORE.formatted("w") + ", " : "";
        return jdbc.sql("""
                        WITH page AS (
                          SELECT * FROM (
                            SELECT uid, namespace, name, queue_name, cluster_queue, priority, created_at,
                                   priority_class_name, submitted_by, inadmissible,
                                   row_number() OVER (PARTITION BY inadmissible ORDER BY""" + " " + first + " " + """
                                                      priority DESC, queue_timestamp, uid) - 1 AS cq_order,
                                   row_number() OVER (PARTITION BY namespace, queue_name, inadmissible
                                                      ORDER BY priority DESC, queue_timestamp, uid) - 1 AS lq_order
                            FROM (SELECT w.*, """ + INADMISSIBLE.formatted("w") + """
                                   AS inadmissible
                                  FROM workload w WHERE state = 'Pending' AND active AND cluster_queue = :cq) w) ranked
                          ORDER BY inadmissible, cq_order OFFSET :offset LIMIT :limit)
                        SELECT page.*, """ + UNLESS_INADMISSIBLE + PAGE_PENDING_REASON_COLUMNS + FORECAST_COLUMNS + """
                        FROM page""" + PAGE_PENDING_REASON_JOIN + FORECAST_JOIN + """
                        ORDER BY inadmissible, cq_order""")
                .param("cq", clusterQueue).param("offset", offset).param("limit", limit)
                .query(this::pendingWorkload).list();
    }

    /**
     * A page's positions from its queue orders, null for the inadmissible, which are listed after every workload
     * with a position (in queue order among themselves).
     */
    private static final String UNLESS_INADMISSIBLE = """
            CASE WHEN inadmissible THEN NULL ELSE cq_order::int END AS in_cq,
            CASE WHEN inadmissible THEN NULL ELSE lq_order::int END AS in_lq, """;

    /** Workloads holding quota in a ClusterQueue, earliest admitted first (the partial index workload_admitted_idx). */
    public List<WorkloadRow> admittedInClusterQueue(String clusterQueue, int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS
                        + " WHERE cluster_queue = ? AND state IN ('Admitted', 'Running')"
                        + " ORDER BY admitted_at, uid LIMIT ?")
                .params(clusterQueue, limit).query(rowMapper).list();
    }

    /** Active workloads without a queue name (priority-only mode), highest priority first, then oldest. */
    public List<WorkloadRow> priorityOnly(int limit) {
        return jdbc.sql("SELECT " + COLUMNS + " FROM " + WORKLOADS + " WHERE queue_name IS NULL"
                        + " AND state IN ('Pending', 'Admitted', 'Running', 'Evicted')"
                        + " ORDER BY priority DESC, queue_timestamp, uid LIMIT ?")
                .param(limit).query(rowMapper).list();
    }

    /** A LocalQueue's pending workloads in queue order; ClusterQueue positions counted for the page only. */
    public List<PendingWorkloadsController.PendingWorkload> pendingInLocalQueue(String namespace, String localQueue,
                                                                                int offset, int limit) {
        List<PendingWorkloadsController.PendingWorkload> page = jdbc.sql("""
                        WITH page AS (
                          SELECT * FROM (
                            SELECT uid, namespace, name, queue_name, cluster_queue, priority, created_at,
                                   priority_class_name, submitted_by, inadmissible, 0 AS cq_order,
                                   row_number() OVER (PARTITION BY inadmissible
                                                      ORDER BY priority DESC, queue_timestamp, uid) - 1 AS lq_order
                            FROM (SELECT w.*, """ + INADMISSIBLE.formatted("w") + """
                                   AS inadmissible
                                  FROM workload w WHERE state = 'Pending' AND active AND namespace = :ns
                                                        AND queue_name = :lq) w) ranked
                          ORDER BY inadmissible, lq_order OFFSET :offset LIMIT :limit)
                        SELECT page.*, """ + UNLESS_INADMISSIBLE + PAGE_PENDING_REASON_COLUMNS + FORECAST_COLUMNS + """
                        FROM page""" + PAGE_PENDING_REASON_JOIN + FORECAST_JOIN + """
                        ORDER BY inadmissible, lq_order""")
                .param("ns", namespace).param("lq", localQueue).param("offset", offset).param("limit", limit)
                .query(this::pendingWorkload).list();
        Map<UUID, Positions> positions = positions(page.stream().map(PendingWorkloadsController.PendingWorkload::uid).toList());
        return page.stream().map(w -> {
            Positions position = positions.get(w.uid());
            return position == null ? w : new PendingWorkloadsController.PendingWorkload(w.namespace(), w.name(),
                    w.uid(), w.localQueueName(), w.clusterQueue(), w.priority(), position.inClusterQueue(),
                    w.positionInLocalQueue(), w.creationTimestamp(), w.pendingReason(), w.forecast(),
                    w.priorityClassName(), w.submittedBy());
        }).toList();
    }

    /**
     * Forecasts of pending workloads, one statement for a page; a forecast's time and staleness are its
     * ClusterQueue's when the queue has been forecast.
     */
    public Map<UUID, WorkloadStatus.Forecast> forecasts(Collection<UUID> pendingUids) {
        Map<UUID, WorkloadStatus.Forecast> forecasts = new HashMap<>();
        if (pendingUids.isEmpty()) {
            return forecasts;
        }
        jdbc.sql("SELECT f.workload_uid AS uid, " + FORECAST_COLUMNS + " FROM (SELECT unnest(?::uuid[]) AS uid) page"
                        + FORECAST_JOIN + " WHERE f.workload_uid IS NOT NULL")
                .param(pendingUids.toArray(UUID[]::new))
                .query((rs, i) -> Map.entry(rs.getObject("uid", UUID.class), forecast(rs)))
                .list().forEach(e -> forecasts.put(e.getKey(), e.getValue()));
        return forecasts;
    }

    private static WorkloadStatus.Forecast forecast(java.sql.ResultSet rs) throws java.sql.SQLException {
        String basis = rs.getString("forecast_basis");
        return basis == null ? null : new WorkloadStatus.Forecast(instant(rs.getTimestamp("forecast_at")),
                instant(rs.getTimestamp("forecast_p10")), instant(rs.getTimestamp("forecast_p90")), basis,
                rs.getString("forecast_message"), instant(rs.getTimestamp("forecast_computed_at")),
                rs.getBoolean("forecast_stale"), instant(rs.getTimestamp("forecast_alone")),
                rs.getString("forecast_arrival_basis"));
    }

    private PendingWorkloadsController.PendingWorkload pendingWorkload(java.sql.ResultSet rs, int row)
            throws java.sql.SQLException {
        String reason = rs.getString("pending_reason");
        return new PendingWorkloadsController.PendingWorkload(rs.getString("namespace"), rs.getString("name"),
                rs.getObject("uid", UUID.class), rs.getString("queue_name"), rs.getString("cluster_queue"),
                rs.getInt("priority"), rs.getObject("in_cq", Integer.class), rs.getObject("in_lq", Integer.class),
                instant(rs.getTimestamp("created_at")),
                reason == null ? null : new WorkloadStatus.PendingReason(reason, rs.getString("pending_message")),
                forecast(rs), rs.getString("priority_class_name"), rs.getString("submitted_by"));
    }

    /** The latest condition of each type for each workload, one statement for a page. */
    public Map<UUID, List<Condition>> conditions(Collection<UUID> uids) {
        Map<UUID, List<Condition>> conditions = new HashMap<>();
        if (uids.isEmpty()) {
            return conditions;
        }
        jdbc.sql("""
                SELECT DISTINCT ON (workload_uid, type) workload_uid, type, status, reason, message, at
                FROM workload_event WHERE workload_uid = ANY(?)
                ORDER BY workload_uid, type, at DESC, id DESC""")
                .param(uids.toArray(UUID[]::new))
                .query((rs, i) -> Map.entry(rs.getObject("workload_uid", UUID.class), new Condition(
                        rs.getString("type"), rs.getString("status"), rs.getString("reason"),
                        rs.getString("message"), instant(rs.getTimestamp("at")))))
                .list()
                .forEach(e -> conditions.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
        return conditions;
    }

    /** The whole timeline of one workload, oldest first. */
    public List<WorkloadEvent> events(UUID uid) {
        return jdbc.sql("""
                SELECT id, at, type, status, reason, message FROM workload_event
                WHERE workload_uid = ? ORDER BY at, id""")
                .param(uid)
                .query((rs, i) -> new WorkloadEvent(rs.getLong("id"), instant(rs.getTimestamp("at")),
                        rs.getString("type"), rs.getString("status"), rs.getString("reason"), rs.getString("message")))
                .list();
    }

    /** A timeline entry with the workload it belongs to. */
    public record OwnedEvent(UUID uid, String namespace, String name, String kind, WorkloadEvent event) {
    }

    /**
     * The newest timeline entries of the live workloads of {@code namespace} (null: every namespace), newest first,
     * at most {@code limit}: what {@code kubectl get events} lists.
     */
    public List<OwnedEvent> recentEvents(String namespace, int limit) {
        return jdbc.sql("""
                        SELECT w.uid, w.namespace, w.name, w.kind, e.id, e.at, e.type, e.status, e.reason, e.message
                        FROM workload_event e JOIN workload w ON w.uid = e.workload_uid
                        WHERE w.deleted_at IS NULL AND (CAST(:namespace AS text) IS NULL OR w.namespace = :namespace)
                        ORDER BY e.at DESC, e.id DESC LIMIT :limit""")
                .param("namespace", namespace).param("limit", limit)
                .query((rs, i) -> new OwnedEvent(rs.getObject("uid", UUID.class), rs.getString("namespace"),
                        rs.getString("name"), rs.getString("kind"), new WorkloadEvent(rs.getLong("id"),
                        instant(rs.getTimestamp("at")), rs.getString("type"), rs.getString("status"),
                        rs.getString("reason"), rs.getString("message"))))
                .list();
    }

    /**
     * Timeline entries by id after {@code afterId}, in id order, at most {@code limit}, each with whether its
     * workload is live (not deleted): what a watch of Events reads. Ids are drawn when an entry is written, so an
     * entry still being written leaves a gap below entries committed after it.
     */
    public List<LoggedEvent> eventsAfter(long afterId, int limit) {
        return jdbc.sql("""
                        SELECT w.uid, w.namespace, w.name, w.kind, w.deleted_at IS NULL AS live,
                               e.id, e.at, e.type, e.status, e.reason, e.message
                        FROM workload_event e JOIN workload w ON w.uid = e.workload_uid
                        WHERE e.id > :after ORDER BY e.id LIMIT :limit""")
                .param("after", afterId).param("limit", limit)
                .query((rs, i) -> new LoggedEvent(new OwnedEvent(rs.getObject("uid", UUID.class),
                        rs.getString("namespace"), rs.getString("name"), rs.getString("kind"),
                        new WorkloadEvent(rs.getLong("id"), instant(rs.getTimestamp("at")), rs.getString("type"),
                                rs.getString("status"), rs.getString("reason"), rs.getString("message"))),
                        rs.getBoolean("live")))
                .list();
    }

    /** The highest timeline entry id committed, 0 when there is none. */
    public long lastEventId() {
        return jdbc.sql("SELECT coalesce(max(id), 0) FROM workload_event").query(Long.class).single();
    }

    /** A timeline entry read by id, and whether its workload is live. */
    public record LoggedEvent(OwnedEvent owned, boolean live) {
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    /** A timeline entry of a workload. */
    public record WorkloadEvent(long id, Instant at, String type, String status, String reason, String message) {
    }

    /**
     * The workloads among {@code uids} that the platform knows, each with the cluster it is placed
     * in (empty while it is placed nowhere).
     */
    public Map<UUID, Optional<String>> knownWorkloads(Collection<UUID> uids) {
        if (uids.isEmpty()) {
            return Map.of();
        }
        Map<UUID, Optional<String>> known = new HashMap<>();
        jdbc.sql("SELECT uid, cluster FROM workload WHERE uid = ANY(?)").param(uids.toArray(UUID[]::new))
                .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), Optional.ofNullable(rs.getString(2))))
                .list().forEach(e -> known.put(e.getKey(), e.getValue()));
        return known;
    }
}
