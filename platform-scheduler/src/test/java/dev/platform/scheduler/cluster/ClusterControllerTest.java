package dev.platform.scheduler.cluster;

import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Node-pool inventory over REST: the list wrapper, field names, 404 for a cluster never reported. */
class ClusterControllerTest extends ControllerSliceTest {

    private static final Instant REPORTED = Instant.parse("2026-01-01T10:00:00Z");

    @Test
    void clustersAreListedUnderItemsWithTheirPoolCounts() throws Exception {
        given(clusterQueries.clusters()).willReturn(List.of(new ClusterQueries.ClusterView("prod-1", true, "agent-a",
                REPORTED, false, 12, new ClusterQueries.PoolCounts(4, 3, 0, 1, 0))));

        mvc.perform(get("/api/v1/clusters"))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.items[0].name").value("prod-1"))
                .andExpect(jsonPath("$.items[0].connected").value(true))
                .andExpect(jsonPath("$.items[0].agentId").value("agent-a"))
                .andExpect(jsonPath("$.items[0].lastReportAt").value("2026-01-01T10:00:00Z"))
                .andExpect(jsonPath("$.items[0].stale").value(false))
                .andExpect(jsonPath("$.items[0].lastAcknowledgedCommand").value(12))
                .andExpect(jsonPath("$.items[0].nodePools.total").value(4))
                .andExpect(jsonPath("$.items[0].nodePools.unhealthy").value(1));
    }

    @Test
    void aClusterNeverReportedIs404Problem() throws Exception {
        given(clusterQueries.cluster("nowhere")).willReturn(Optional.empty());
        given(clusterQueries.nodePools("nowhere")).willReturn(Optional.empty());

        for (String path : List.of("/api/v1/clusters/nowhere", "/api/v1/clusters/nowhere/nodepools")) {
            mvc.perform(get(path))
                    .andExpect(status().isNotFound())
                    .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                    .andExpect(jsonPath("$.title").value("Not Found"))
                    .andExpect(jsonPath("$.detail").value("Cluster \"nowhere\" not found"))
                    .andExpect(jsonPath("$.errors").isEmpty());
        }
    }

    @Test
    void nodePoolsShowActedAndReportedHealthAndTheirWorkloads() throws Exception {
        given(clusterQueries.nodePools("prod-1")).willReturn(Optional.of(new ClusterQueries.NodePoolsView("prod-1", true,
                REPORTED, List.of(new ClusterQueries.NodePoolView("pool-a", "tpu-v6e-slice", "4x4", 4, 4, 16,
                        NodePool.Health.Unknown, NodePool.Health.Healthy, List.of(), null, REPORTED,
                        List.of(new ClusterQueries.PlacedWorkload("uid-1", "team-a", "train", "Running", false)))),
                null)));

        mvc.perform(get("/api/v1/clusters/prod-1/nodepools"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.cluster").value("prod-1"))
                .andExpect(jsonPath("$.stale").value(true))
                .andExpect(jsonPath("$.items[0].name").value("pool-a"))
                .andExpect(jsonPath("$.items[0].chips").value(16))
                .andExpect(jsonPath("$.items[0].health").value("Unknown"))
                .andExpect(jsonPath("$.items[0].reportedHealth").value("Healthy"))
                .andExpect(jsonPath("$.items[0].workloads[0].phase").value("Running"));
    }
}
