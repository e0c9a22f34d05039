package dev.platform.scheduler.console;

import dev.platform.scheduler.cluster.AgentsProperties;
import dev.platform.web.live.ConsoleChanges;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

import java.sql.Timestamp;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;

/**
 * The console's change token in one statement per scope. For every namespace: the workload change feed
 * (and the workload count, for deletions), a digest of node-pool health and reasons (not
 * {@code updated_at}, which every report moves), a digest of placements, the hotswap phases stamped so
 * far, and how many clusters are stale. For a team's namespaces: what its pages show of those.
 */
@Component
class ConsoleChangeFeed implements ConsoleChanges {

    private final JdbcClient jdbc;
    private final AgentsProperties agents;
    private final Clock clock;

    ConsoleChangeFeed(JdbcClient jdbc, AgentsProperties agents, Clock clock) {
        this.jdbc = jdbc;
        this.agents = agents;
        this.clock = clock;
    }

    @Override
    public String version(Optional<Set<String>> namespaces) {
        return namespaces.map(this::versionOf).orElseGet(this::versionOfEverything);
    }

    private String versionOfEverything() {
        return jdbc.sql("""
                        SELECT concat_ws(':',
                            (SELECT coalesce(max(change_seq), 0) || '.' || count(*) FROM workload),
                            (SELECT md5(coalesce(string_agg(cluster || '/' || name || '/' || health || '/'
                                    || array_to_string(health_reasons, ','), ';' ORDER BY cluster, name), ''))
                             FROM node_pool),
                            (SELECT md5(coalesce(string_agg(cluster || '/' || workload_uid || '/' || phase || '/'
                                    || array_to_string(node_pools, ','), ';' ORDER BY cluster, workload_uid), ''))
                             FROM cluster_workload),
                            (SELECT coalesce(max(id), 0) || '.' || count(decided_at) || '.' || count(evictions_done_at)
                                    || '.' || count(running_at) || '.' || count(*) FILTER (WHERE outcome <> 'InProgress')
                             FROM hotswap_event),
                            (SELECT count(*) FROM cluster WHERE last_report_at < :staleBefore))""")
                .param("staleBefore", Timestamp.from(clock.instant().minus(agents.staleness())))
                .query(String.class).single();
    }

    /**
     * What a team's pages show: the workloads of its namespaces (their placements move their change
     * sequence, as every change of a workload row does) and the pending and admitted counts of the ClusterQueues that serve them. Node pools,
     * hotswaps and clusters are shown to Ops and Admins only.
     */
    private String versionOf(Set<String> namespaces) {
        return jdbc.sql("""
                        SELECT concat_ws(':',
                            (SELECT coalesce(max(change_seq), 0) || '.' || count(*) FROM workload
                             WHERE namespace = ANY(:namespaces)),
                            (SELECT md5(coalesce(string_agg(c.cluster_queue || '/' || c.pending || '/' || c.admitted, ';'
                                    ORDER BY c.cluster_queue), ''))
                             FROM cluster_queue_workload_count c
                             WHERE c.cluster_queue IN (SELECT cluster_queue FROM local_queue
                                                       WHERE namespace = ANY(:namespaces))))""")
                .param("namespaces", namespaces.toArray(String[]::new))
                .query(String.class).single();
    }
}
