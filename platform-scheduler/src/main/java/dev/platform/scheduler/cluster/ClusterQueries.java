package dev.platform.scheduler.cluster;

import dev.platform.scheduler.core.placement.NodePool;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The inventory as users read it. A stale cluster (no report within {@code platform.agents.staleness})
 * shows every pool Unknown, whatever it last reported.
 */
@Repository
public class ClusterQueries {

    private final JdbcClient jdbc;
    private final AgentsProperties properties;
    private final Clock clock;

    ClusterQueries(JdbcClient jdbc, AgentsProperties properties, Clock clock) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.clock = clock;
    }

    /** Pools of a cluster counted by the health shown. */
    record PoolCounts(int total, int healthy, int degraded, int unhealthy, int unknown) {
    }

    /**
     * {@code connected}: an agent has reported the cluster's inventory; {@code stale}: connected,
     * but its last report is older than the staleness window.
     */
    record ClusterView(String name, boolean connected, String agentId, Instant lastReportAt, boolean stale,
                       long lastAcknowledgedCommand, PoolCounts nodePools, DisruptionView disruption) {

        ClusterView(String name, boolean connected, String agentId, Instant lastReportAt, boolean stale,
                    long lastAcknowledgedCommand, PoolCounts nodePools) {
            this(name, connected, agentId, lastReportAt, stale, lastAcknowledgedCommand, nodePools, null);
        }
    }

    /**
     * A cluster whose requeues are held ({@link ClusterDisruptions}): since when, how many running JobSets its FULL
     * report lacked of how many, and what ends it; null for a cluster that is not disrupted.
     */
    public record DisruptionView(Instant since, int missingJobSets, int runningWorkloads, String message) {
    }

    /** {@code priorityOnly}: the workload names no queue and holds its pools without quota. */
    public record PlacedWorkload(String uid, String namespace, String name, String phase, boolean priorityOnly) {
    }

    /** {@code health} is what the scheduler acts on (Unknown when stale); {@code reportedHealth} the agent's last word. */
    public record NodePoolView(String name, String accelerator, String topology, int nodes, int chipsPerNode, int chips,
                        NodePool.Health health, NodePool.Health reportedHealth, List<String> reasons,
                        Instant unhealthySince, Instant updatedAt, List<PlacedWorkload> workloads) {
    }

    public record NodePoolsView(String cluster, boolean stale, Instant lastReportAt, List<NodePoolView> items,
                                DisruptionView disruption) {
    }

    private record ClusterRow(String name, String agentId, Instant lastReportAt, long lastAcked,
                              DisruptionView disruption) {
    }

    List<ClusterView> clusters() {
        Map<String, Map<NodePool.Health, Integer>> counts = new HashMap<>();
        jdbc.sql("SELECT cluster, health, count(*) AS n FROM node_pool GROUP BY cluster, health")
                .query(rs -> {
                    counts.computeIfAbsent(rs.getString("cluster"), c -> new HashMap<>())
                            .put(NodePool.Health.valueOf(rs.getString("health")), rs.getInt("n"));
                });
        return clusterRows(null).stream().map(c -> view(c, counts.getOrDefault(c.name(), Map.of()))).toList();
    }

    Optional<ClusterView> cluster(String name) {
        Map<NodePool.Health, Integer> counts = new HashMap<>();
        jdbc.sql("SELECT health, count(*) AS n FROM node_pool WHERE cluster = ? GROUP BY health").param(name)
                .query(rs -> {
                    counts.put(NodePool.Health.valueOf(rs.getString("health")), rs.getInt("n"));
                });
        return clusterRows(name).stream().findFirst().map(c -> view(c, counts));
    }

    Optional<NodePoolsView> nodePools(String cluster) {
        return nodePoolsOf(cluster).stream().findFirst();
    }

    /** Every cluster with its pools, in three statements whatever their number (the console's grid). */
    public List<NodePoolsView> allNodePools() {
        return nodePoolsOf(null);
    }

    /** The pools of one cluster, or of all when {@code cluster} is null. */
    private List<NodePoolsView> nodePoolsOf(String cluster) {
        List<ClusterRow> rows = clusterRows(cluster);
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<String, Map<String, List<PlacedWorkload>>> placed = new HashMap<>();
        jdbc.sql("""
                        SELECT cw.cluster, pool, w.uid, w.namespace, w.name, cw.phase,
                               w.queue_name IS NULL AS priority_only
                        FROM cluster_workload cw JOIN workload w ON w.uid = cw.workload_uid,
                             unnest(cw.node_pools) AS pool
                        WHERE (CAST(? AS text) IS NULL OR cw.cluster = ?) ORDER BY w.namespace, w.name""")
                .params(cluster, cluster)
                .query(rs -> {
                    placed.computeIfAbsent(rs.getString("cluster"), c -> new HashMap<>())
                            .computeIfAbsent(rs.getString("pool"), p -> new ArrayList<>())
                            .add(new PlacedWorkload(rs.getObject("uid", UUID.class).toString(),
                                    rs.getString("namespace"), rs.getString("name"), rs.getString("phase"),
                                    rs.getBoolean("priority_only")));
                });
        Map<String, Boolean> stale = new HashMap<>();
        rows.forEach(r -> stale.put(r.name(), isStale(r.lastReportAt())));
        Map<String, List<NodePoolView>> pools = new HashMap<>();
        jdbc.sql("""
                        SELECT cluster, name, accelerator, topology, health, health_reasons, node_count, chips_per_node,
                               unhealthy_since, updated_at
                        FROM node_pool WHERE (CAST(? AS text) IS NULL OR cluster = ?) ORDER BY cluster, name""")
                .params(cluster, cluster)
                .query(rs -> {
                    String of = rs.getString("cluster");
                    NodePool.Health reported = NodePool.Health.valueOf(rs.getString("health"));
                    int nodes = rs.getInt("node_count");
                    int chipsPerNode = rs.getInt("chips_per_node");
                    pools.computeIfAbsent(of, c -> new ArrayList<>()).add(new NodePoolView(rs.getString("name"),
                            rs.getString("accelerator"), rs.getString("topology"), nodes, chipsPerNode,
                            nodes * chipsPerNode, stale.getOrDefault(of, false) ? NodePool.Health.Unknown : reported,
                            reported,
                            ClusterInventoryStore.strings(rs.getArray("health_reasons")),
                            ClusterInventoryStore.instant(rs, "unhealthy_since"),
                            ClusterInventoryStore.instant(rs, "updated_at"),
                            placed.getOrDefault(of, Map.of()).getOrDefault(rs.getString("name"), List.of())));
                });
        return rows.stream().map(r -> new NodePoolsView(r.name(), stale.get(r.name()), r.lastReportAt(),
                List.copyOf(pools.getOrDefault(r.name(), List.of())), r.disruption())).toList();
    }

    private List<ClusterRow> clusterRows(String name) {
        return jdbc.sql("""
                        SELECT name, agent_identity, last_report_at,
                               (SELECT coalesce(max(a.seq), 0) FROM agent_command a
                                WHERE a.cluster = c.name AND a.state IN ('Succeeded', 'Failed', 'Refused')),
                               disrupted_since, disruption_missing, disruption_running
                        FROM cluster c
                        WHERE (CAST(? AS text) IS NULL OR name = ?) ORDER BY name""")
                .params(name, name)
                .query((rs, i) -> new ClusterRow(rs.getString(1), rs.getString(2),
                        ClusterInventoryStore.instant(rs, "last_report_at"), rs.getLong(4),
                        rs.getTimestamp("disrupted_since") == null ? null : new DisruptionView(
                                rs.getTimestamp("disrupted_since").toInstant(), rs.getInt("disruption_missing"),
                                rs.getInt("disruption_running"), ClusterDisruptions.message(rs.getString(1),
                                rs.getInt("disruption_missing"), rs.getInt("disruption_running")))))
                .list();
    }

    private ClusterView view(ClusterRow c, Map<NodePool.Health, Integer> byHealth) {
        boolean connected = c.lastReportAt() != null;
        boolean stale = isStale(c.lastReportAt());
        int total = byHealth.values().stream().mapToInt(Integer::intValue).sum();
        PoolCounts counts = stale
                ? new PoolCounts(total, 0, 0, 0, total)
                : new PoolCounts(total, byHealth.getOrDefault(NodePool.Health.Healthy, 0),
                byHealth.getOrDefault(NodePool.Health.Degraded, 0), byHealth.getOrDefault(NodePool.Health.Unhealthy, 0),
                byHealth.getOrDefault(NodePool.Health.Unknown, 0));
        return new ClusterView(c.name(), connected, c.agentId(), c.lastReportAt(), stale, c.lastAcked(), counts,
                c.disruption());
    }

    private boolean isStale(Instant lastReportAt) {
        return lastReportAt != null && lastReportAt.isBefore(clock.instant().minus(properties.staleness()));
    }

    // ---- for the metrics

    /** A count of one cluster's node pools or commands in one state. */
    public record CountInState(String cluster, String state, long count) {
    }

    /** When each cluster's agent last reported, for the clusters that reported. */
    public Map<String, Instant> lastReports() {
        Map<String, Instant> reports = new LinkedHashMap<>();
        jdbc.sql("SELECT name, last_report_at FROM cluster WHERE last_report_at IS NOT NULL")
                .query(rs -> {
                    reports.put(rs.getString(1), rs.getTimestamp(2).toInstant());
                });
        return reports;
    }

    /** Node pools per cluster and health; every pool of a cluster not reported since {@code staleBefore} is Unknown. */
    public List<CountInState> nodePoolsByHealth(Instant staleBefore) {
        return jdbc.sql("""
                        SELECT p.cluster, CASE WHEN c.last_report_at IS NULL OR c.last_report_at < :stale THEN 'Unknown'
                                               ELSE p.health END, count(*)
                        FROM node_pool p JOIN cluster c ON c.name = p.cluster GROUP BY 1, 2""")
                .param("stale", Timestamp.from(staleBefore))
                .query((rs, i) -> new CountInState(rs.getString(1), rs.getString(2), rs.getLong(3)))
                .list();
    }

    /** Commands not finished yet per cluster and state (Pending, Delivered), zero included. */
    public List<CountInState> unfinishedCommands() {
        return jdbc.sql("""
                        SELECT c.name, s.state, count(a.seq)
                        FROM cluster c CROSS JOIN (VALUES ('Pending'), ('Delivered')) AS s (state)
                        LEFT JOIN agent_command a ON a.cluster = c.name AND a.state = s.state
                        GROUP BY 1, 2""")
                .query((rs, i) -> new CountInState(rs.getString(1), rs.getString(2), rs.getLong(3)))
                .list();
    }
}
