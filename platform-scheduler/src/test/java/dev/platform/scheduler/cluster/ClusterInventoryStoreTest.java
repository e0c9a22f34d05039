package dev.platform.scheduler.cluster;

import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inventory as agents write it and users read it: a pool entry replaces its nodes whole, a FULL report's
 * workload list replaces the cluster's, and a cluster whose last report is older than the staleness window
 * shows every pool Unknown while keeping what the agent last said.
 */
@StoreSliceTest
class ClusterInventoryStoreTest {

    private static final Instant NOW = StoreSliceTest.NOW;

    @Autowired
    ClusterInventoryStore inventory;

    @Autowired
    ClusterQueries queries;

    @Autowired
    WorkloadStore workloads;

    @Autowired
    AgentsProperties agents;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    JdbcClient jdbc;

    @BeforeEach
    void aReportingCluster() {
        inventory.createIfAbsent("prod-1");
        inventory.createIfAbsent("prod-1");
        inventory.recordReport("prod-1", "agent-a", 7, NOW.minusSeconds(2), NOW, true);
    }

    private static NodeReport node(String name, HealthState state, int chips, NodeHealthReason... reasons) {
        return new NodeReport(name, state, List.of(reasons), chips, chips, null);
    }

    private static NodePoolReport pool(String name, HealthState state, NodeReport... nodes) {
        return new NodePoolReport(name, "tpu-v6e-slice", "2x2", state,
                state == HealthState.HEALTHY ? List.of() : List.of(NodeHealthReason.NOT_READY), List.of(nodes));
    }

    private List<String> nodes(String pool) {
        return jdbc.sql("SELECT name || ':' || health FROM node WHERE cluster = 'prod-1' AND node_pool = ? ORDER BY name")
                .param(pool).query(String.class).list();
    }

    @Test
    void theLockReadsTheLastReport() {
        assertThat(inventory.lock("prod-1")).contains(new ClusterInventoryStore.LastReport("agent-a", 7, NOW.minusSeconds(2)));
        assertThat(inventory.lock("nowhere")).isEmpty();
    }

    @Test
    void aPoolEntryReplacesItsNodesWhole() {
        inventory.putPool("prod-1", pool("tpu-0", HealthState.HEALTHY, node("n-1", HealthState.HEALTHY, 4),
                node("n-2", HealthState.HEALTHY, 4)), null, NOW);

        inventory.putPool("prod-1", pool("tpu-0", HealthState.UNHEALTHY, node("n-2", HealthState.UNHEALTHY, 4,
                NodeHealthReason.NOT_READY), node("n-3", HealthState.HEALTHY, 8)), NOW, NOW);

        assertThat(nodes("tpu-0")).containsExactly("n-2:Unhealthy", "n-3:Healthy");
        assertThat(inventory.pools("prod-1")).containsExactly(Map.entry("tpu-0",
                new ClusterInventoryStore.StoredPool(NodePool.Health.Unhealthy, NOW)));
        assertThat(queries.nodePools("prod-1").orElseThrow().items()).singleElement().satisfies(p -> {
            assertThat(p.nodes()).isEqualTo(2);
            assertThat(p.chipsPerNode()).as("the largest node's").isEqualTo(8);
            assertThat(p.chips()).isEqualTo(16);
            assertThat(p.reasons()).containsExactly("NOT_READY");
        });
    }

    @Test
    void deletingPoolsSaysWhichExistedAndTakesTheirNodes() {
        inventory.putPool("prod-1", pool("tpu-0", HealthState.HEALTHY, node("n-1", HealthState.HEALTHY, 4)), null, NOW);

        assertThat(inventory.deletePools("prod-1", List.of("tpu-0", "never"))).containsExactly("tpu-0");
        assertThat(inventory.deletePools("prod-1", List.of())).isEmpty();
        assertThat(nodes("tpu-0")).isEmpty();
    }

    @Test
    void aFullReportsWorkloadsReplaceTheClustersAndShowUnderTheirPools() {
        inventory.putPool("prod-1", pool("tpu-0", HealthState.HEALTHY, node("n-1", HealthState.HEALTHY, 4)), null, NOW);
        UUID kept = submit(transitions, "team-a", "kept", "lq", "cq", 0, NOW);
        UUID gone = submit(transitions, "team-a", "gone", "lq", "cq", 0, NOW);
        inventory.putWorkloads("prod-1", Map.of(kept, running(kept), gone, running(gone)), NOW);
        inventory.putWorkloads("prod-1", Map.of(kept, running(kept)), NOW);

        inventory.replaceWorkloads("prod-1", Map.of(kept, running(kept)), NOW);

        assertThat(queries.nodePools("prod-1").orElseThrow().items().get(0).workloads())
                .containsExactly(new ClusterQueries.PlacedWorkload(kept.toString(), "team-a", "kept", "RUNNING", false));
        UUID unknown = UUID.randomUUID();
        assertThat(workloads.knownWorkloads(List.of(kept, unknown))).containsOnlyKeys(kept)
                .containsEntry(kept, Optional.empty());
        inventory.deleteWorkloads("prod-1", List.of(kept));
        assertThat(queries.nodePools("prod-1").orElseThrow().items().get(0).workloads()).isEmpty();
    }

    @Test
    void aReportWritesWhatChangedAndLeavesRepeatedRowsAsTheyWere() {
        UUID runs = submit(transitions, "team-a", "runs", "lq", "cq", 0, NOW);
        UUID ended = submit(transitions, "team-a", "ended", "lq", "cq", 0, NOW);
        WorkloadStatusReport succeeded = new WorkloadStatusReport(ended.toString(), "team-a", "ended",
                WorkloadPhase.SUCCEEDED, 0, 0, 2, 0, List.of(), List.of());
        UUID gone = submit(transitions, "team-a", "gone", "lq", "cq", 0, NOW);
        inventory.putWorkloads("prod-1", Map.of(runs, running(runs), ended, succeeded, gone, running(gone)), NOW);

        WorkloadStatusReport moved = new WorkloadStatusReport(runs.toString(), "team-a", "js", WorkloadPhase.RUNNING,
                0, 2, 0, 0, List.of("n-1", "n-2"), List.of("tpu-0", "tpu-1"));
        inventory.putWorkloads("prod-1", Map.of(runs, moved, ended, succeeded), NOW.plusSeconds(60));
        // a FULL report: the same rows again, one gone from the cluster
        inventory.replaceWorkloads("prod-1", Map.of(runs, moved, ended, succeeded), NOW.plusSeconds(120));

        assertThat(jdbc.sql("""
                        SELECT workload_uid, phase, pods_running, pods_succeeded, nodes, node_pools, reported_at
                        FROM cluster_workload WHERE cluster = 'prod-1'""")
                .query((rs, i) -> Map.entry(rs.getObject(1, UUID.class), rs.getString(2) + " " + rs.getInt(3) + "/"
                        + rs.getInt(4) + " " + List.of((String[]) rs.getArray(5).getArray()) + " "
                        + List.of((String[]) rs.getArray(6).getArray()) + " "
                        + Duration.between(NOW, rs.getTimestamp(7).toInstant()).toSeconds()))
                .list())
                .containsExactlyInAnyOrder(
                        Map.entry(runs, "RUNNING 2/0 [n-1, n-2] [tpu-0, tpu-1] 60"),
                        Map.entry(ended, "SUCCEEDED 0/2 [] [] 0"));
    }

    private static WorkloadStatusReport running(UUID uid) {
        return new WorkloadStatusReport(uid.toString(), "team-a", "js", WorkloadPhase.RUNNING, 0, 1, 0, 0,
                List.of("n-1"), List.of("tpu-0"));
    }

    @Test
    void aStaleClusterShowsItsPoolsUnknownAndKeepsWhatWasReported() {
        inventory.putPool("prod-1", pool("tpu-0", HealthState.HEALTHY, node("n-1", HealthState.HEALTHY, 4)), null, NOW);
        inventory.putPool("prod-1", pool("tpu-1", HealthState.DEGRADED, node("n-2", HealthState.DEGRADED, 4)), null, NOW);
        inventory.createIfAbsent("prod-2");
        inventory.createIfAbsent("quiet");
        inventory.recordReport("prod-2", "agent-b", 1, null, NOW.minus(agents.staleness()).minusMillis(1), true);
        inventory.putPool("prod-2", pool("tpu-0", HealthState.UNHEALTHY, node("m-1", HealthState.UNHEALTHY, 4)), NOW, NOW);
        inventory.recordReport("prod-1", "agent-a", 8, null, NOW.minus(agents.staleness()), false);

        assertThat(queries.clusters()).extracting(c -> c.name() + " connected=" + c.connected() + " stale=" + c.stale()
                        + " " + c.nodePools())
                .containsExactly(
                        "prod-1 connected=true stale=false PoolCounts[total=2, healthy=1, degraded=1, unhealthy=0, unknown=0]",
                        "prod-2 connected=true stale=true PoolCounts[total=1, healthy=0, degraded=0, unhealthy=0, unknown=1]",
                        "quiet connected=false stale=false PoolCounts[total=0, healthy=0, degraded=0, unhealthy=0, unknown=0]");
        assertThat(queries.nodePools("prod-2").orElseThrow().items()).singleElement().satisfies(p -> {
            assertThat(p.health()).isEqualTo(NodePool.Health.Unknown);
            assertThat(p.reportedHealth()).isEqualTo(NodePool.Health.Unhealthy);
        });
        assertThat(queries.cluster("prod-2")).hasValueSatisfying(c -> assertThat(c.stale()).isTrue());
        assertThat(queries.allNodePools()).extracting(ClusterQueries.NodePoolsView::cluster)
                .containsExactly("prod-1", "prod-2", "quiet");
    }
}
