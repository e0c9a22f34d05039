package dev.platform.scheduler.console;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.util.Optional;
import java.util.Set;

import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's change token moves with what a page shows (workloads, pool health and reasons, a cluster
 * going stale) and stays put when an agent's report only refreshes what is already shown.
 */
@StoreSliceTest
class ConsoleChangeFeedTest {

    @Autowired
    ConsoleChangeFeed feed;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void aClusterWithAPool() {
        jdbc.sql("INSERT INTO cluster (name, last_report_at) VALUES ('prod-1', ?)")
                .param(Timestamp.from(StoreSliceTest.NOW)).update();
        jdbc.sql("""
                INSERT INTO node_pool (cluster, name, health, node_count, updated_at)
                VALUES ('prod-1', 'tpu-0', 'Healthy', 4, ?)""").param(Timestamp.from(StoreSliceTest.NOW)).update();
    }

    @Test
    void theTokenMovesWithWhatAPageShowsAndNotWithARefresh() {
        String initial = feed.version(Optional.empty());

        jdbc.sql("UPDATE node_pool SET updated_at = updated_at + interval '10 seconds'").update();
        assertThat(feed.version(Optional.empty())).as("a report that changes nothing shown").isEqualTo(initial);

        jdbc.sql("UPDATE node_pool SET health = 'Unhealthy', health_reasons = '{NOT_READY}'").update();
        String unhealthy = feed.version(Optional.empty());
        assertThat(unhealthy).isNotEqualTo(initial);

        submit(transitions, "team-a", "train", "lq", "cq", 0, StoreSliceTest.NOW);
        String submitted = feed.version(Optional.empty());
        assertThat(submitted).isNotEqualTo(unhealthy);

        jdbc.sql("UPDATE cluster SET last_report_at = last_report_at - interval '1 hour'").update();
        assertThat(feed.version(Optional.empty())).as("the cluster went stale").isNotEqualTo(submitted);
    }

    @Test
    void aTeamsTokenMovesWithItsOwnWorkloadsAndNotWithAnotherTeamsOrTheInfrastructure() {
        jdbc.sql("INSERT INTO local_queue (namespace, name, cluster_queue, stop_policy, spec) VALUES"
                + " ('team-a', 'lq', 'cq', 'None', '{}'), ('team-b', 'lq', 'other-cq', 'None', '{}')").update();
        Optional<Set<String>> teamA = Optional.of(Set.of("team-a"));
        String initial = feed.version(teamA);

        submit(transitions, "team-b", "theirs", "lq", "other-cq", 0, StoreSliceTest.NOW);
        jdbc.sql("UPDATE node_pool SET health = 'Unhealthy', health_reasons = '{NOT_READY}'").update();
        assertThat(feed.version(teamA)).as("another team's workload, a pool's health").isEqualTo(initial);

        submit(transitions, "team-a", "ours", "lq", "cq", 0, StoreSliceTest.NOW);
        assertThat(feed.version(teamA)).isNotEqualTo(initial);
    }
}
