package dev.platform.scheduler.console;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.web.nodepool.NodePoolQueries.ClusterPools;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node-pool grid: a pool lists its nodes that are not healthy with their reasons; a stale cluster's pools
 * show Unknown without reasons, since they are as old as its last report.
 */
@StoreSliceTest
class ConsoleNodePoolsTest {

    @Autowired
    ConsoleNodePools grid;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void aFreshAndAStaleCluster() {
        cluster("fresh", Duration.ZERO);
        cluster("stale", Duration.ofHours(1));
    }

    private void cluster(String name, Duration lastReportAgo) {
        jdbc.sql("INSERT INTO cluster (name, last_report_at) VALUES (?, ?)")
                .params(name, Timestamp.from(StoreSliceTest.NOW.minus(lastReportAgo))).update();
        jdbc.sql("""
                INSERT INTO node_pool (cluster, name, health, health_reasons, node_count)
                VALUES (?, 'tpu-0', 'Unhealthy', '{NOT_READY}', 2)""").param(name).update();
        jdbc.sql("""
                INSERT INTO node (cluster, name, node_pool, health, health_reasons, allocatable, capacity, updated_at)
                VALUES (?, 'n-1', 'tpu-0', 'Unhealthy', '{NOT_READY,CORDONED}', '{}', '{}', now()),
                       (?, 'n-2', 'tpu-0', 'Healthy', '{}', '{}', '{}', now())""").params(name, name).update();
    }

    private ClusterPools of(String cluster) {
        return grid.clusters().stream().filter(c -> c.name().equals(cluster)).findFirst().orElseThrow();
    }

    @Test
    void aPoolListsItsNodesThatAreNotHealthyUnlessItsClusterIsStale() {
        ClusterPools fresh = of("fresh");
        ClusterPools stale = of("stale");

        assertThat(fresh.stale()).isFalse();
        assertThat(fresh.pools()).singleElement().satisfies(p -> {
            assertThat(p.health()).isEqualTo("Unhealthy");
            assertThat(p.reasons()).containsExactly("NOT_READY");
            assertThat(p.nodeIssues()).extracting(n -> n.name() + " " + n.health() + " " + n.reasons())
                    .containsExactly("n-1 Unhealthy " + List.of("NOT_READY", "CORDONED"));
        });
        assertThat(stale.stale()).isTrue();
        assertThat(stale.pools()).singleElement().satisfies(p -> {
            assertThat(p.health()).isEqualTo("Unknown");
            assertThat(p.reasons()).isEmpty();
            assertThat(p.nodeIssues()).isEmpty();
        });
    }
}
