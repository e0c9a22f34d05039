package dev.platform.scheduler.cluster;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Clusters marked disrupted: a FULL report lacked more of their running JobSets than one report may requeue
 * ({@code platform.agents.disruption-percent}, {@code disruption-minimum}). As Kubernetes' node lifecycle controller
 * stops evicting from a zone that goes dark all at once, the requeues of such a cluster are held: whatever the cause
 * (a misconfigured agent, a cluster restored from an old backup, an API server answering empty lists) is more likely
 * than that much work ending together. They go ahead once a later FULL report lacks the JobSets too, or an Ops or
 * Admin user confirms; the mark is cleared when the JobSets are back.
 */
@Repository
public class ClusterDisruptions {

    private final JdbcClient jdbc;

    ClusterDisruptions(JdbcTemplate jdbcTemplate) {
        this.jdbc = JdbcClient.create(jdbcTemplate);
    }

    /**
     * @param since       when the scheduler held the requeues
     * @param reportAt    the FULL report that lacked the JobSets; a later one confirms
     * @param missing     how many running JobSets it lacked
     * @param running     of how many the platform runs in the cluster
     * @param confirmedBy the Ops or Admin user who confirmed the requeues, empty until one does
     */
    public record Disruption(Instant since, Instant reportAt, int missing, int running, Optional<String> confirmedBy) {

    }

    /** What a user reads: what was found, what is held, how it ends. */
    static String message(String cluster, int missing, int running) {
        return "a FULL report of cluster " + cluster + " lacked " + missing + " of its " + running
                + " running JobSets: their requeues are held until a later FULL report confirms it or an Ops or"
                + " Admin user does (POST /api/v1/clusters/" + cluster + "/disruption/confirm)";
    }

    /** Every cluster marked disrupted. */
    public Map<String, Disruption> disrupted() {
        Map<String, Disruption> disrupted = new LinkedHashMap<>();
        jdbc.sql("""
                        SELECT name, disrupted_since, disruption_report_at, disruption_missing, disruption_running,
                               disruption_confirmed_by
                        FROM cluster WHERE disrupted_since IS NOT NULL ORDER BY name""")
                .query(rs -> {
                    disrupted.put(rs.getString("name"), new Disruption(rs.getTimestamp("disrupted_since").toInstant(),
                            rs.getTimestamp("disruption_report_at").toInstant(), rs.getInt("disruption_missing"),
                            rs.getInt("disruption_running"), Optional.ofNullable(rs.getString("disruption_confirmed_by"))));
                });
        return disrupted;
    }

    /** Marks the cluster disrupted, unless it is already. */
    public void mark(String cluster, Instant now, Instant reportAt, int missing, int running) {
        jdbc.sql("""
                        UPDATE cluster SET disrupted_since = ?, disruption_report_at = ?, disruption_missing = ?,
                               disruption_running = ?, disruption_confirmed_at = NULL, disruption_confirmed_by = NULL
                        WHERE name = ? AND disrupted_since IS NULL""")
                .params(Timestamp.from(now), Timestamp.from(reportAt), missing, running, cluster)
                .update();
    }

    /** The held requeues may go ahead: {@code by} said so. False when the cluster is not disrupted. */
    boolean confirm(String cluster, String by) {
        return jdbc.sql("""
                        UPDATE cluster SET disruption_confirmed_at = now(), disruption_confirmed_by = ?
                        WHERE name = ? AND disrupted_since IS NOT NULL""")
                .params(by, cluster)
                .update() == 1;
    }

    /** The cluster is no longer disrupted: its requeues went ahead, or its JobSets came back. */
    public void clear(String cluster) {
        jdbc.sql("""
                        UPDATE cluster SET disrupted_since = NULL, disruption_report_at = NULL, disruption_missing = NULL,
                               disruption_running = NULL, disruption_confirmed_at = NULL, disruption_confirmed_by = NULL
                        WHERE name = ?""")
                .param(cluster)
                .update();
    }
}
