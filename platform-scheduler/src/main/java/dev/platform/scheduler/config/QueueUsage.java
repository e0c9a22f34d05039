package dev.platform.scheduler.config;

import dev.platform.scheduler.core.Quantities;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Live usage of ClusterQueues from the quota rows of admitted workloads: per flavor and
 * resource, what is used, borrowed from the cohort and lent to it, plus workload counts. A fixed
 * number of grouped queries whatever the number of queues or workloads.
 */
@Component
public class QueueUsage {

    private final JdbcClient jdbc;

    QueueUsage(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** One flavor/resource line of a ClusterQueue; quantities as Kubernetes text, null when unlimited. */
    public record ResourceUsage(String flavor, String resource, String nominalQuota, String borrowingLimit,
                         String lendingLimit, String used, String borrowed, String lent) {
    }

    /** A ClusterQueue's usage lines and workload counts. */
    public record Usage(List<ResourceUsage> resources, long pendingWorkloads, long admittedWorkloads) {
        public static final Usage NONE = new Usage(List.of(), 0, 0);
    }

    private record Line(String clusterQueue, String cohort, String flavor, String resource, BigDecimal nominal,
                        BigDecimal borrowingLimit, BigDecimal lendingLimit, BigDecimal used) {
        BigDecimal borrowed() {
            return used.subtract(nominal).max(BigDecimal.ZERO);
        }

        /** Unused quota the cohort may take: at most the lending limit. */
        BigDecimal lendable() {
            BigDecimal unused = nominal.subtract(used).max(BigDecimal.ZERO);
            return lendingLimit == null ? unused : unused.min(lendingLimit);
        }
    }

    /**
     * Usage of the given queues. Lending is computed among the direct members of each cohort: what
     * the other members borrow is attributed to the lenders in proportion to their lendable quota,
     * so the amounts lent add up to the amounts borrowed.
     */
    public Map<String, Usage> of(Collection<String> clusterQueues) {
        if (clusterQueues.isEmpty()) {
            return Map.of();
        }
        String[] names = clusterQueues.toArray(String[]::new);
        List<Line> lines = jdbc.sql("""
                WITH wanted AS (
                  SELECT name, cohort FROM cluster_queue
                  WHERE name = ANY(:names)
                     OR cohort IN (SELECT cohort FROM cluster_queue WHERE name = ANY(:names) AND cohort IS NOT NULL))
                SELECT q.cluster_queue, w.cohort, q.flavor, q.resource, q.nominal_quota, q.borrowing_limit,
                       q.lending_limit, coalesce(u.used, 0) AS used
                FROM cluster_queue_quota q
                JOIN wanted w ON w.name = q.cluster_queue
                LEFT JOIN (SELECT cluster_queue, flavor, resource, sum(amount) AS used FROM workload_usage
                           WHERE cluster_queue IN (SELECT name FROM wanted) GROUP BY 1, 2, 3) u
                       ON u.cluster_queue = q.cluster_queue AND u.flavor = q.flavor AND u.resource = q.resource
                ORDER BY q.cluster_queue, q.group_index, q.flavor_index, q.resource""")
                .param("names", names)
                .query((rs, i) -> new Line(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getBigDecimal(5), rs.getBigDecimal(6), rs.getBigDecimal(7), rs.getBigDecimal(8)))
                .list();
        Map<String, BigDecimal[]> byCohortResource = new HashMap<>();
        for (Line line : lines) {
            if (line.cohort() != null) {
                BigDecimal[] totals = byCohortResource.computeIfAbsent(cohortKey(line), k ->
                        new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO});
                totals[0] = totals[0].add(line.borrowed());
                totals[1] = totals[1].add(line.lendable());
            }
        }
        Map<String, long[]> counts = new HashMap<>();
        // Counters kept by triggers (migration V8): two numbers per queue, whatever the backlog.
        jdbc.sql("SELECT cluster_queue, pending, admitted FROM cluster_queue_workload_count WHERE cluster_queue = ANY(:names)")
                .param("names", names)
                .query((rs, i) -> Map.entry(rs.getString(1), new long[]{rs.getLong(2), rs.getLong(3)}))
                .list().forEach(e -> counts.put(e.getKey(), e.getValue()));
        Map<String, List<ResourceUsage>> resources = new HashMap<>();
        for (Line line : lines) {
            if (!clusterQueues.contains(line.clusterQueue())) {
                continue;
            }
            resources.computeIfAbsent(line.clusterQueue(), k -> new ArrayList<>()).add(new ResourceUsage(
                    line.flavor(), line.resource(), text(line.nominal()), text(line.borrowingLimit()),
                    text(line.lendingLimit()), text(line.used()), text(line.borrowed()), text(lent(line, byCohortResource))));
        }
        Map<String, Usage> usage = new HashMap<>();
        for (String queue : clusterQueues) {
            long[] c = counts.getOrDefault(queue, new long[]{0, 0});
            usage.put(queue, new Usage(resources.getOrDefault(queue, List.of()), c[0], c[1]));
        }
        return usage;
    }

    private static BigDecimal lent(Line line, Map<String, BigDecimal[]> byCohortResource) {
        if (line.cohort() == null || line.lendable().signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal[] totals = byCohortResource.get(cohortKey(line));
        BigDecimal borrowedByOthers = totals[0].subtract(line.borrowed());
        if (borrowedByOthers.signum() <= 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal lent = borrowedByOthers.multiply(line.lendable())
                .divide(totals[1], 3, java.math.RoundingMode.DOWN);
        return lent.min(line.lendable());
    }

    private static String cohortKey(Line line) {
        return line.cohort() + "\u0000" + line.flavor() + "\u0000" + line.resource();
    }

    private static String text(BigDecimal value) {
        if (value == null) {
            return null;
        }
        return Quantities.format(value.movePointRight(3).setScale(0, java.math.RoundingMode.CEILING).longValueExact());
    }

    // ---- for the metrics

    /** An amount of one flavor-resource of a ClusterQueue (in its cohort, "" when none). */
    public record QuotaAmount(String cohort, String clusterQueue, String flavor, String resource, double amount) {
    }

    /** Admitted workloads per ClusterQueue. */
    public Map<String, Long> admittedCounts() {
        Map<String, Long> counts = new LinkedHashMap<>();
        jdbc.sql("SELECT cluster_queue, admitted FROM cluster_queue_workload_count")
                .query(rs -> {
                    counts.put(rs.getString(1), rs.getLong(2));
                });
        return counts;
    }

    /** Whether each ClusterQueue is active: not stopped, and every flavor its quota names exists. */
    public Map<String, Boolean> activeClusterQueues() {
        Map<String, Boolean> active = new LinkedHashMap<>();
        jdbc.sql("""
                        SELECT q.name, q.stop_policy = 'None' AND NOT EXISTS (
                            SELECT 1 FROM cluster_queue_quota f
                            WHERE f.cluster_queue = q.name AND NOT EXISTS (SELECT 1 FROM resource_flavor r WHERE r.name = f.flavor))
                        FROM cluster_queue q""")
                .query(rs -> {
                    active.put(rs.getString(1), rs.getBoolean(2));
                });
        return active;
    }

    /** Quota held by admitted workloads per ClusterQueue, flavor and resource. */
    public List<QuotaAmount> usageAmounts() {
        return jdbc.sql("""
                        SELECT coalesce(q.cohort, ''), u.cluster_queue, u.flavor, u.resource, sum(u.amount)
                        FROM workload_usage u LEFT JOIN cluster_queue q ON q.name = u.cluster_queue
                        GROUP BY 1, 2, 3, 4""")
                .query(QueueUsage::quotaAmount).list();
    }

    /** One column of the quota rows (nominal_quota, borrowing_limit or lending_limit) where it is set. */
    public List<QuotaAmount> quotaAmounts(QuotaColumn column) {
        return jdbc.sql("SELECT coalesce(q.cohort, ''), f.cluster_queue, f.flavor, f.resource, f." + column.column
                        + " FROM cluster_queue_quota f JOIN cluster_queue q ON q.name = f.cluster_queue"
                        + " WHERE f." + column.column + " IS NOT NULL")
                .query(QueueUsage::quotaAmount).list();
    }

    /** The quota columns the metrics show. */
    public enum QuotaColumn {
        NOMINAL_QUOTA("nominal_quota"), BORROWING_LIMIT("borrowing_limit"), LENDING_LIMIT("lending_limit");

        private final String column;

        QuotaColumn(String column) {
            this.column = column;
        }
    }

    private static QuotaAmount quotaAmount(ResultSet rs, int row) throws SQLException {
        return new QuotaAmount(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                rs.getBigDecimal(5).doubleValue());
    }
}
