package dev.platform.scheduler.workload;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Where the workloads applied to a cluster came from (the cluster and the JobSet's uid), and the timeline of every
 * workload of a cluster, in id order: what that cluster's agent writes as Events on the JobSets there. A workload is
 * a cluster's when it was submitted there, is placed there, or was ever sent a command there (an evicted workload's
 * suspended JobSet stays in the cluster it ran in, and its eviction is told there).
 */
@Repository
public class WorkloadOrigins {

    private final JdbcClient jdbc;

    public WorkloadOrigins(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** The workload was submitted as the JobSet {@code jobSetUid} of {@code cluster}; recorded once. */
    public void record(UUID workload, String cluster, String jobSetUid) {
        jdbc.sql("""
                        INSERT INTO workload_origin (workload_uid, cluster, jobset_uid) VALUES (?, ?, ?)
                        ON CONFLICT (workload_uid) DO NOTHING""")
                .params(workload, cluster, jobSetUid).update();
    }

    /** The id of the latest timeline entry of any workload, 0 when there is none. */
    public long latestId() {
        return jdbc.sql("SELECT coalesce(max(id), 0) FROM workload_event").query(Long.class).single();
    }

    /** A timeline entry of a workload of the cluster; {@code jobSetUid} null unless it was submitted there. */
    public record ClusterEntry(long id, Instant at, UUID workloadUid, String namespace, String name, String jobSetUid,
                               String type, String status, String reason, String message) {
    }

    /** The timeline entries of the cluster's workloads with an id above {@code after}, in id order. */
    public List<ClusterEntry> timeline(String cluster, long after, int limit) {
        return jdbc.sql("""
                        SELECT e.id, e.at, w.uid, w.namespace, w.name, o.jobset_uid, e.type, e.status, e.reason, e.message
                        FROM workload_event e
                        JOIN workload w ON w.uid = e.workload_uid
                        LEFT JOIN workload_origin o ON o.workload_uid = w.uid
                        WHERE e.id > :after
                          AND (w.cluster = :cluster OR o.cluster = :cluster
                               OR EXISTS (SELECT 1 FROM agent_command c
                                          WHERE c.workload_uid = w.uid AND c.cluster = :cluster))
                        ORDER BY e.id
                        LIMIT :limit""")
                .param("after", after).param("cluster", cluster).param("limit", limit)
                .query((rs, n) -> new ClusterEntry(rs.getLong(1), rs.getTimestamp(2).toInstant(),
                        rs.getObject(3, UUID.class), rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7),
                        rs.getString(8), rs.getString(9), rs.getString(10)))
                .list();
    }
}
