package dev.platform.scheduler.console;

import dev.platform.scheduler.cluster.ClusterQueries;
import dev.platform.scheduler.cluster.ClusterQueries.NodePoolView;
import dev.platform.scheduler.cluster.ClusterQueries.NodePoolsView;
import dev.platform.web.nodepool.NodePoolQueries;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.sql.Array;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The node-pool grid in four statements: clusters, placements, pools (the inventory's read model,
 * with Unknown for stale clusters) and the nodes that are not healthy with their reasons.
 */
@Component
class ConsoleNodePools implements NodePoolQueries {

    private final ClusterQueries inventory;
    private final JdbcClient jdbc;

    ConsoleNodePools(ClusterQueries inventory, JdbcClient jdbc) {
        this.inventory = inventory;
        this.jdbc = jdbc;
    }

    @Override
    public List<ClusterPools> clusters() {
        List<NodePoolsView> clusters = inventory.allNodePools();
        Map<List<String>, List<NodeIssue>> issues = new HashMap<>();
        jdbc.sql("""
                        SELECT cluster, node_pool, name, health, health_reasons FROM node
                        WHERE health <> 'Healthy' ORDER BY cluster, node_pool, name""")
                .query(rs -> {
                    issues.computeIfAbsent(List.of(rs.getString("cluster"), rs.getString("node_pool")),
                                    k -> new ArrayList<>())
                            .add(new NodeIssue(rs.getString("name"), rs.getString("health"),
                                    strings(rs.getArray("health_reasons"))));
                });
        return clusters.stream().map(c -> new ClusterPools(c.cluster(), c.lastReportAt() != null, c.stale(),
                c.lastReportAt(), c.disruption() == null ? null : c.disruption().message(),
                c.items().stream().map(p -> pool(c, p, issues)).toList())).toList();
    }

    /** A stale cluster's node health is as old as its last report: shown Unknown, without node reasons. */
    private static Pool pool(NodePoolsView cluster, NodePoolView p, Map<List<String>, List<NodeIssue>> issues) {
        List<NodeIssue> nodeIssues = cluster.stale() ? List.of()
                : issues.getOrDefault(List.of(cluster.cluster(), p.name()), List.of());
        return new Pool(p.name(), p.accelerator(), p.topology(), p.nodes(), p.chips(), p.health().name(),
                cluster.stale() ? List.of() : p.reasons(), p.unhealthySince(), nodeIssues,
                p.workloads().stream().map(w -> new PlacedWorkload(w.namespace(), w.name(), w.phase(),
                        w.priorityOnly())).toList());
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
