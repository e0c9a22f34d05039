package dev.platform.scheduler.console;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;

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
        String initial = feed.version();

        jdbc.sql("UPDATE node_pool SET updated_at = updated_at + interval '10 seconds'").update();
        assertThat(feed.version()).as("a report that changes nothing shown").isEqualTo(initial);

        jdbc.sql("UPDATE node_pool SET health = 'Unhealthy', health_reasons = '{NOT_READY}'").update();
        String unhealthy = feed.version();
        assertThat(unhealthy).isNotEqualTo(initial);

        submit(transitions, "team-a", "train", "lq", "cq", 0, StoreSliceTest.NOW);
        String submitted = feed.version();
        assertThat(submitted).isNotEqualTo(unhealthy);

        jdbc.sql("UPDATE cluster SET last_report_at = last_report_at - interval '1 hour'").update();
        assertThat(feed.version()).as("the cluster went stale").isNotEqualTo(submitted);
    }
}
