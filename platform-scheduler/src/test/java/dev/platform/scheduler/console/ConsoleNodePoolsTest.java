package dev.platform.scheduler.console;

import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.testsupport.StoredWorkloads;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.web.nodepool.NodePoolQueries.ClusterPools;
import dev.platform.web.nodepool.NodePoolQueries.PlacedWorkload;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The node-pool grid: a pool lists its nodes that are not healthy with their reasons; a stale cluster's pools
 * show Unknown without reasons, since they are as old as its last report; a workload without a queue is marked
 * priority-only on the pools it holds.
 */
@StoreSliceTest
class ConsoleNodePoolsTest {

    @Autowired
    ConsoleNodePools grid;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    WorkloadTransitions transitions;

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

    @Test
    void aWorkloadWithoutQueueIsMarkedPriorityOnlyOnThePoolItHolds() {
        jdbc.sql("INSERT INTO node_pool (cluster, name, health, node_count) VALUES ('fresh', 'tpu-1', 'Healthy', 4)").update();
        UUID quotaFree = StoredWorkloads.submit(transitions, "team-a", "quota-free", null, null, 0, StoreSliceTest.NOW);
        UUID queued = StoredWorkloads.submit(transitions, "team-a", "queued", "lq", "cq", 0, StoreSliceTest.NOW);
        place(quotaFree, "tpu-0");
        place(queued, "tpu-1");

        assertThat(of("fresh").pools()).extracting(p -> p.name() + " " + p.workloads())
                .containsExactly("tpu-0 " + List.of(new PlacedWorkload("team-a", "quota-free", "RUNNING", true)),
                        "tpu-1 " + List.of(new PlacedWorkload("team-a", "queued", "RUNNING", false)));
    }

    private void place(UUID workload, String pool) {
        jdbc.sql("""
                INSERT INTO cluster_workload (cluster, workload_uid, phase, pods_pending, pods_running, pods_succeeded,
                                              pods_failed, nodes, node_pools, reported_at)
                VALUES ('fresh', ?, 'RUNNING', 0, 1, 0, 0, '{}', ARRAY[?], now())""").params(workload, pool).update();
    }
}
