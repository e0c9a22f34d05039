package dev.platform.scheduler.cluster;

import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.core.placement.NodePool;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;

/** Clusters, their node pools and nodes, and where their workloads run, as agents report them. */
@Repository
class ClusterInventoryStore {

    private final JdbcClient jdbc;
    private final JdbcTemplate jdbcTemplate;
    private final JsonMapper json;

    ClusterInventoryStore(JdbcTemplate jdbcTemplate, JsonMapper json) {
        this.jdbcTemplate = jdbcTemplate;
        this.json = json;
        this.jdbc = JdbcClient.create(jdbcTemplate);
    }

    /** The last applied report of a cluster: the agent of its FULL report, its sequence and stamp. */
    record LastReport(String agentId, long sequence, Instant sentAt) {
    }

    /** A pool as stored, to tell what a report changes. */
    record StoredPool(NodePool.Health health, Instant unhealthySince) {
    }

    /**
     * Locks the cluster row until the end of the transaction, so reports of one cluster apply one
     * at a time. FOR NO KEY UPDATE, not FOR UPDATE: a decision transaction inserting commands
     * (foreign key, KEY SHARE) while holding the workload lock must not wait for a report that
     * waits for that lock.
     */
    Optional<LastReport> lock(String cluster) {
        return jdbc.sql("""
                        SELECT agent_identity, last_report_seq, last_report_sent_at FROM cluster
                        WHERE name = ? FOR NO KEY UPDATE""")
                .param(cluster)
                .query((rs, i) -> new LastReport(rs.getString(1), rs.getLong(2), instant(rs.getTimestamp(3))))
                .optional();
    }

    /** The agent instance that speaks for the cluster; {@link ClusterVoice#NONE} for a cluster not yet known. */
    ClusterVoice voice(String cluster) {
        return jdbc.sql("SELECT agent_instance, last_report_at FROM cluster WHERE name = ?").param(cluster)
                .query((rs, i) -> new ClusterVoice(rs.getString(1), instant(rs.getTimestamp(2))))
                .optional().orElse(ClusterVoice.NONE);
    }

    /** {@code instance} speaks for the cluster from now on; null: none does (the one that did resigned). */
    void speaks(String cluster, String instance) {
        jdbc.sql("UPDATE cluster SET agent_instance = ? WHERE name = ?").params(instance, cluster).update();
    }

    /** Creates the cluster on its first FULL report. */
    void createIfAbsent(String cluster) {
        jdbc.sql("INSERT INTO cluster (name) VALUES (?) ON CONFLICT (name) DO NOTHING").param(cluster).update();
    }

    /** Records an applied report; a FULL one also stamps {@code last_full_report_at}, from which JobSets it lacks are missing. */
    void recordReport(String cluster, String agentId, long sequence, Instant sentAt, Instant now, boolean full) {
        jdbc.sql("""
                        UPDATE cluster SET agent_identity = ?, last_report_seq = ?, last_report_sent_at = ?,
                               last_report_at = ?,
                               last_full_report_at = CASE WHEN ? THEN ? ELSE last_full_report_at END
                        WHERE name = ?""")
                .params(agentId, sequence, sentAt == null ? null : Timestamp.from(sentAt), Timestamp.from(now), full,
                        Timestamp.from(now), cluster)
                .update();
    }

    Map<String, StoredPool> pools(String cluster) {
        Map<String, StoredPool> pools = new HashMap<>();
        jdbc.sql("SELECT name, health, unhealthy_since FROM node_pool WHERE cluster = ?").param(cluster)
                .query((rs, i) -> Map.entry(rs.getString(1),
                        new StoredPool(NodePool.Health.valueOf(rs.getString(2)), instant(rs.getTimestamp(3)))))
                .list().forEach(e -> pools.put(e.getKey(), e.getValue()));
        return pools;
    }

    /** Writes a pool entry whole: the pool row and exactly the nodes it lists. */
    void putPool(String cluster, NodePoolReport pool, Instant unhealthySince, Instant now) {
        int chipsPerNode = pool.nodes().stream().mapToInt(NodeReport::chipCapacity).max().orElse(0);
        jdbc.sql("""
                        INSERT INTO node_pool (cluster, name, accelerator, topology, health, health_reasons, node_count,
                                               chips_per_node, unhealthy_since, updated_at)
                        VALUES (?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?)
                        ON CONFLICT (cluster, name) DO UPDATE SET accelerator = excluded.accelerator,
                            topology = excluded.topology, health = excluded.health,
                            health_reasons = excluded.health_reasons, node_count = excluded.node_count,
                            chips_per_node = excluded.chips_per_node, unhealthy_since = excluded.unhealthy_since,
                            updated_at = excluded.updated_at""")
                .params(cluster, pool.name(), pool.accelerator(), pool.topology(), health(pool.state()).name(),
                        reasons(pool.reasons()), pool.nodes().size(), chipsPerNode,
                        unhealthySince == null ? null : Timestamp.from(unhealthySince), Timestamp.from(now))
                .update();
        jdbc.sql("DELETE FROM node WHERE cluster = ? AND node_pool = ?").params(cluster, pool.name()).update();
        jdbcTemplate.batchUpdate("""
                        INSERT INTO node (cluster, name, node_pool, health, health_reasons, allocatable, capacity,
                                          updated_at)
                        VALUES (?, ?, ?, ?, ?::text[], ?::jsonb, ?::jsonb, ?)
                        ON CONFLICT (cluster, name) DO UPDATE SET node_pool = excluded.node_pool,
                            health = excluded.health, health_reasons = excluded.health_reasons,
                            allocatable = excluded.allocatable, capacity = excluded.capacity,
                            updated_at = excluded.updated_at""",
                pool.nodes().stream().map(n -> new Object[]{cluster, n.name(), pool.name(),
                        health(n.state()).name(), reasons(n.reasons()), chips(n.chipAllocatable()),
                        chips(n.chipCapacity()), Timestamp.from(now)}).toList());
    }

    /** Deletes pools (their nodes go with them); returns the names that existed. */
    List<String> deletePools(String cluster, Collection<String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("DELETE FROM node_pool WHERE cluster = ? AND name = ANY(?::text[]) RETURNING name")
                .params(cluster, names.toArray(String[]::new)).query(String.class).list();
    }

    /**
     * Records where {@code statuses}' workloads are and how their pods do, in one statement however many a report
     * carries; a row the report does not change is left as it is ({@code reported_at}: the report that last changed
     * it), so a FULL report repeating thousands of ended JobSets writes nothing for them.
     */
    void putWorkloads(String cluster, Map<UUID, WorkloadStatusReport> statuses, Instant now) {
        if (statuses.isEmpty()) {
            return;
        }
        List<Map.Entry<UUID, WorkloadStatusReport>> rows = List.copyOf(statuses.entrySet());
        jdbc.sql("""
                        INSERT INTO cluster_workload (cluster, workload_uid, phase, pods_pending, pods_running,
                                                      pods_succeeded, pods_failed, nodes, node_pools, reported_at,
                                                      pods_ready)
                        SELECT :cluster, r.uid, r.phase, r.pending, r.running, r.succeeded, r.failed,
                               ARRAY(SELECT jsonb_array_elements_text(r.nodes::jsonb)),
                               ARRAY(SELECT jsonb_array_elements_text(r.pools::jsonb)), :now, r.ready
                        FROM unnest(:uids::uuid[], :phases::text[], :pending::int[], :running::int[],
                                    :succeeded::int[], :failed::int[], :nodes::text[], :pools::text[], :ready::int[])
                             AS r(uid, phase, pending, running, succeeded, failed, nodes, pools, ready)
                        ON CONFLICT (cluster, workload_uid) DO UPDATE SET phase = excluded.phase,
                            pods_pending = excluded.pods_pending, pods_running = excluded.pods_running,
                            pods_succeeded = excluded.pods_succeeded, pods_failed = excluded.pods_failed,
                            pods_ready = excluded.pods_ready,
                            nodes = excluded.nodes, node_pools = excluded.node_pools,
                            reported_at = excluded.reported_at
                        WHERE (cluster_workload.phase, cluster_workload.pods_pending, cluster_workload.pods_running,
                               cluster_workload.pods_succeeded, cluster_workload.pods_failed,
                               cluster_workload.pods_ready, cluster_workload.nodes, cluster_workload.node_pools)
                              IS DISTINCT FROM
                              (excluded.phase, excluded.pods_pending, excluded.pods_running, excluded.pods_succeeded,
                               excluded.pods_failed, excluded.pods_ready, excluded.nodes, excluded.node_pools)""")
                .param("cluster", cluster).param("now", Timestamp.from(now))
                .param("uids", rows.stream().map(Map.Entry::getKey).toArray(UUID[]::new))
                .param("phases", column(rows, s -> s.phase().name(), String[]::new))
                .param("pending", column(rows, WorkloadStatusReport::podsPending, Integer[]::new))
                .param("running", column(rows, WorkloadStatusReport::podsRunning, Integer[]::new))
                .param("succeeded", column(rows, WorkloadStatusReport::podsSucceeded, Integer[]::new))
                .param("failed", column(rows, WorkloadStatusReport::podsFailed, Integer[]::new))
                .param("nodes", column(rows, s -> json.writeValueAsString(s.nodes()), String[]::new))
                .param("pools", column(rows, s -> json.writeValueAsString(s.nodePools()), String[]::new))
                .param("ready", column(rows, WorkloadStatusReport::podsReady, Integer[]::new))
                .update();
    }

    private static <T> T[] column(List<Map.Entry<UUID, WorkloadStatusReport>> rows,
                                  Function<WorkloadStatusReport, ? extends T> value, IntFunction<T[]> array) {
        return rows.stream().map(row -> value.apply(row.getValue())).toArray(array);
    }

    void deleteWorkloads(String cluster, Collection<UUID> uids) {
        if (!uids.isEmpty()) {
            jdbc.sql("DELETE FROM cluster_workload WHERE cluster = ? AND workload_uid = ANY(?)")
                    .params(cluster, uids.toArray(UUID[]::new)).update();
        }
    }

    /**
     * A FULL report lists every workload of the cluster, the ended ones it still holds included: they replace the
     * cluster's rows. One read of the stored rows tells what changed; only that is written, and the rows the report
     * lacks are deleted. Writing a FULL report of 44,000 JobSets as one upsert held the cluster's reports up for
     * nearly two seconds a minute, though almost every row was as stored.
     */
    void replaceWorkloads(String cluster, Map<UUID, WorkloadStatusReport> present, Instant now) {
        Map<UUID, StoredWorkload> stored = new HashMap<>();
        jdbc.sql("""
                        SELECT workload_uid, phase, pods_pending, pods_running, pods_succeeded, pods_failed, pods_ready,
                               nodes, node_pools
                        FROM cluster_workload WHERE cluster = ?""")
                .param(cluster)
                .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), new StoredWorkload(rs.getString(2),
                        rs.getInt(3), rs.getInt(4), rs.getInt(5), rs.getInt(6), rs.getObject(7, Integer.class),
                        strings(rs.getArray(8)), strings(rs.getArray(9)))))
                .list().forEach(e -> stored.put(e.getKey(), e.getValue()));
        Map<UUID, WorkloadStatusReport> changed = new LinkedHashMap<>();
        present.forEach((uid, status) -> {
            if (!StoredWorkload.of(status).equals(stored.get(uid))) {
                changed.put(uid, status);
            }
        });
        deleteWorkloads(cluster, stored.keySet().stream().filter(uid -> !present.containsKey(uid)).toList());
        putWorkloads(cluster, changed, now);
    }

    /** What a cluster_workload row holds of a report, to tell whether a report changes it. */
    private record StoredWorkload(String phase, int pending, int running, int succeeded, int failed, Integer ready,
                                  List<String> nodes, List<String> nodePools) {

        static StoredWorkload of(WorkloadStatusReport status) {
            return new StoredWorkload(status.phase().name(), status.podsPending(), status.podsRunning(),
                    status.podsSucceeded(), status.podsFailed(), status.podsReady(), status.nodes(),
                    status.nodePools());
        }
    }

    /**
     * A node's or pool's health as an agent reports it, in the scheduler's one health type; {@code Unknown} is
     * never reported: it is what a stale cluster's pools are shown as.
     */
    static NodePool.Health health(HealthState state) {
        return switch (state) {
            case HEALTHY -> NodePool.Health.Healthy;
            case DEGRADED -> NodePool.Health.Degraded;
            case UNHEALTHY -> NodePool.Health.Unhealthy;
        };
    }

    static String[] reasons(List<NodeHealthReason> reasons) {
        return reasons.stream().map(Enum::name).toArray(String[]::new);
    }

    static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        return instant(rs.getTimestamp(column));
    }

    private static String chips(int chips) {
        return chips == 0 ? "{}" : "{\"google.com/tpu\": \"" + chips + "\"}";
    }
}
