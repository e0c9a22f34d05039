package dev.platform.scheduler.config;

import dev.platform.scheduler.leadership.LeaderStatus;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * ClusterQueue usage over time, for the team quota chart: the scheduling leader samples used
 * quota per flavor and resource at a fixed interval (one statement for every queue) and drops
 * samples past the retention.
 */
@Component
public class QueueUsageHistory {

    private final JdbcClient jdbc;
    private final LeaderStatus leader;
    private final Clock clock;
    private final Duration retention;

    public QueueUsageHistory(JdbcClient jdbc, LeaderStatus leader, Clock clock,
                             @Value("${platform.console.usage-retention:7d}") Duration retention) {
        this.jdbc = jdbc;
        this.leader = leader;
        this.clock = clock;
        this.retention = retention;
    }

    /** One sample of one queue's flavor and resource. */
    public record Sample(String clusterQueue, String flavor, String resource, Instant at, BigDecimal used,
                         BigDecimal nominalQuota) {
    }

    @Scheduled(fixedDelayString = "${platform.console.usage-sample-interval:60s}",
            initialDelayString = "${platform.console.usage-sample-interval:60s}")
    void sampleOnTheLeader() {
        if (leader.isLeader()) {
            sample();
        }
    }

    /** Records the current usage of every ClusterQueue and forgets samples past the retention. */
    public void sample() {
        Instant now = clock.instant();
        jdbc.sql("""
                INSERT INTO cluster_queue_usage_sample (cluster_queue, at, flavor, resource, used, nominal_quota)
                SELECT q.cluster_queue, :at, q.flavor, q.resource, coalesce(u.used, 0), q.nominal_quota
                FROM cluster_queue_quota q
                LEFT JOIN (SELECT cluster_queue, flavor, resource, sum(amount) AS used FROM workload_usage
                           GROUP BY 1, 2, 3) u
                       ON u.cluster_queue = q.cluster_queue AND u.flavor = q.flavor AND u.resource = q.resource
                ON CONFLICT DO NOTHING""").param("at", Timestamp.from(now)).update();
        jdbc.sql("DELETE FROM cluster_queue_usage_sample WHERE at < ?").param(Timestamp.from(now.minus(retention)))
                .update();
    }

    /** Samples of the given queues since {@code since}, oldest first. */
    public List<Sample> since(Collection<String> clusterQueues, Instant since) {
        if (clusterQueues.isEmpty()) {
            return List.of();
        }
        return jdbc.sql("""
                        SELECT cluster_queue, flavor, resource, at, used, nominal_quota FROM cluster_queue_usage_sample
                        WHERE cluster_queue = ANY(:queues) AND at >= :since
                        ORDER BY cluster_queue, flavor, resource, at""")
                .param("queues", clusterQueues.toArray(String[]::new)).param("since", Timestamp.from(since))
                .query((rs, i) -> new Sample(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getTimestamp(4).toInstant(), rs.getBigDecimal(5), rs.getBigDecimal(6)))
                .list();
    }
}
