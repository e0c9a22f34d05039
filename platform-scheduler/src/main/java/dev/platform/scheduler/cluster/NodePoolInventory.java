package dev.platform.scheduler.cluster;

import dev.platform.api.agent.GkeLabels;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.core.placement.PoolKey;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The node pools as placement reads them: every reported pool with the health placement may trust,
 * and the pools that have been Unhealthy long enough to disrupt the workloads on them.
 */
@Repository
public class NodePoolInventory {

    /** A pool Unhealthy since {@code since}, with the nodes that made it so and why. */
    public record UnhealthyPool(String cluster, String pool, List<String> nodes, List<NodeHealthReason> reasons,
                                Instant since) {

        public PoolKey key() {
            return new PoolKey(cluster, pool);
        }
    }

    private final JdbcClient jdbc;

    NodePoolInventory(JdbcTemplate jdbcTemplate) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
    }

    /**
     * Every pool of every cluster, ordered by cluster and name, with the workload it was provisioned for, if any. A
     * cluster whose last report is older than {@code freshAfter} is stale: its pools are Unknown, never Unhealthy, so
     * nothing is evicted on stale data.
     */
    public List<NodePool> pools(Instant freshAfter) {
        return jdbc.sql("""
                        SELECT p.cluster, p.name, p.accelerator, p.topology, p.health, p.node_count, p.chips_per_node,
                               c.last_report_at, r.workload_uid::text AS reserved_for
                        FROM node_pool p JOIN cluster c ON c.name = p.cluster
                        LEFT JOIN provisioned_node_pool r ON r.cluster = p.cluster AND r.pool = p.name
                        ORDER BY p.cluster, p.name""")
                .query((rs, i) -> {
                    Map<String, String> labels = new HashMap<>();
                    labels.put(GkeLabels.NODE_POOL, rs.getString("name"));
                    if (rs.getString("accelerator") != null) {
                        labels.put(GkeLabels.TPU_ACCELERATOR, rs.getString("accelerator"));
                    }
                    if (rs.getString("topology") != null) {
                        labels.put(GkeLabels.TPU_TOPOLOGY, rs.getString("topology"));
                    }
                    Timestamp reported = rs.getTimestamp("last_report_at");
                    boolean stale = reported == null || reported.toInstant().isBefore(freshAfter);
                    NodePool.Health health = stale ? NodePool.Health.Unknown
                            : NodePool.Health.valueOf(rs.getString("health"));
                    return new NodePool(rs.getString("cluster"), rs.getString("name"), labels, rs.getInt("node_count"),
                            rs.getInt("chips_per_node"), health, rs.getString("reserved_for"));
                })
                .list();
    }

    /** The pools Unhealthy since {@code notAfter} or earlier, with their Unhealthy nodes. */
    public List<UnhealthyPool> unhealthySince(Instant notAfter) {
        return jdbc.sql("""
                        SELECT p.cluster, p.name, p.unhealthy_since, p.health_reasons,
                               coalesce(array_agg(n.name ORDER BY n.name) FILTER (WHERE n.health = 'Unhealthy'), '{}') AS nodes
                        FROM node_pool p LEFT JOIN node n ON n.cluster = p.cluster AND n.node_pool = p.name
                        WHERE p.health = 'Unhealthy' AND p.unhealthy_since <= ?
                        GROUP BY p.cluster, p.name, p.unhealthy_since, p.health_reasons""")
                .param(Timestamp.from(notAfter))
                .query((rs, i) -> new UnhealthyPool(rs.getString(1), rs.getString(2),
                        Arrays.asList((String[]) rs.getArray(5).getArray()),
                        ClusterInventoryStore.strings(rs.getArray(4)).stream().map(NodeHealthReason::valueOf).toList(),
                        rs.getTimestamp(3).toInstant()))
                .list();
    }
}
