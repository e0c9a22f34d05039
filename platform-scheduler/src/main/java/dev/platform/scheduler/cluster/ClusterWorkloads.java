package dev.platform.scheduler.cluster;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.UUID;

/**
 * What the platform believes runs in its clusters, held against what their agents last reported: the
 * workloads whose JobSet a cluster acknowledged starting and no longer has.
 */
@Repository
public class ClusterWorkloads {

    private final JdbcClient jdbc;

    ClusterWorkloads(JdbcTemplate jdbcTemplate) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
    }

    /**
     * Among {@code uids}, JobSets a cluster runs (their workload uid label), those the platform does not run: the
     * workload is unknown to it, or Finished or Failed; and no command for it to {@code cluster} is under way or was
     * carried out after {@code acknowledgedAfter} (a DELETE or STOP the report may have been taken too early to
     * show).
     */
    public List<UUID> strays(String cluster, Collection<UUID> uids, Instant acknowledgedAfter) {
        if (uids.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        SELECT u.uid FROM unnest(:uids::uuid[]) AS u(uid)
                        LEFT JOIN workload w ON w.uid = u.uid
                        WHERE (w.uid IS NULL OR w.state IN ('Finished', 'Failed'))
                          AND NOT EXISTS (SELECT 1 FROM agent_command a
                                          WHERE a.workload_uid = u.uid AND a.cluster = :cluster
                                            AND (a.state IN ('Pending', 'Delivered') OR a.acked_at > :acknowledgedAfter))
                        ORDER BY u.uid""")
                .param("uids", uids.toArray(UUID[]::new))
                .param("cluster", cluster)
                .param("acknowledgedAfter", Timestamp.from(acknowledgedAfter))
                .query(UUID.class).list();
    }

    /** How many workloads are Admitted or Running in each cluster: what a report may find missing. */
    public Map<String, Integer> placedCounts() {
        Map<String, Integer> counts = new HashMap<>();
        jdbc.sql("""
                        SELECT cluster, count(*) FROM workload
                        WHERE state IN ('Admitted', 'Running') AND cluster IS NOT NULL GROUP BY cluster""")
                .query(rs -> {
                    counts.put(rs.getString(1), rs.getInt(2));
                });
        return counts;
    }

    /**
     * A workload holding quota in {@code cluster} whose JobSet is gone from it: the cluster acknowledged its START
     * or RESTART ({@code acknowledgedAt}); its last FULL report ({@code fullReportAt}) came later, and no report
     * since has the JobSet.
     */
    public record MissingJobSet(UUID uid, String namespace, String name, String cluster, long version,
                                String clusterQueue, String priorityClassName, int restarts, Integer maxRestarts,
                                Instant acknowledgedAt, Instant fullReportAt) {
    }

    /**
     * The workloads Admitted or Running in a cluster that reported since {@code freshAfter} (not stale), whose
     * latest command was a START or RESTART to that cluster, acknowledged as done at least {@code grace} before the
     * cluster's last FULL report, and which no report since has (the FULL report lacked it, or a later one said
     * it was deleted). A report received sooner after the acknowledgement may have been taken before the JobSet
     * appeared in the agent's watch: it decides nothing. A command not yet carried out, or a STOP or a hotswap's
     * RESTART under way, is a later command: the workload is left alone until it is done.
     */
    public List<MissingJobSet> missingJobSets(Instant freshAfter, Duration grace) {
        return jdbc.sql("""
                        SELECT w.uid, w.namespace, w.name, w.cluster, w.version, w.cluster_queue,
                               w.priority_class_name, w.restarts, w.max_restarts, last.acked_at,
                               c.last_full_report_at
                        FROM workload w
                        JOIN cluster c ON c.name = w.cluster
                        JOIN LATERAL (SELECT a.cluster, a.type, a.state, a.acked_at FROM agent_command a
                                      WHERE a.workload_uid = w.uid ORDER BY a.seq DESC LIMIT 1) last ON true
                        WHERE w.state IN ('Admitted', 'Running')
                          AND c.last_report_at >= :freshAfter
                          AND last.cluster = w.cluster AND last.type IN ('START', 'RESTART')
                          AND last.state = 'Succeeded'
                          AND last.acked_at + :graceMillis * interval '1 millisecond' <= c.last_full_report_at
                          AND NOT EXISTS (SELECT 1 FROM cluster_workload cw
                                          WHERE cw.cluster = w.cluster AND cw.workload_uid = w.uid)
                        ORDER BY w.cluster, w.uid""")
                .param("freshAfter", Timestamp.from(freshAfter))
                .param("graceMillis", grace.toMillis())
                .query((rs, i) -> new MissingJobSet(rs.getObject("uid", UUID.class), rs.getString("namespace"),
                        rs.getString("name"), rs.getString("cluster"), rs.getLong("version"),
                        rs.getString("cluster_queue"), rs.getString("priority_class_name"), rs.getInt("restarts"),
                        (Integer) rs.getObject("max_restarts"), rs.getTimestamp("acked_at").toInstant(),
                        rs.getTimestamp("last_full_report_at").toInstant()))
                .list();
    }
}
