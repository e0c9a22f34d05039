package dev.platform.web.nodepool;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;

import static dev.platform.web.console.ConsoleFixtures.priorityOnlyCluster;
import static dev.platform.web.console.ConsoleFixtures.simCluster;
import static dev.platform.web.console.ConsoleFixtures.staleCluster;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(NodePoolPageController.class)
class NodePoolPageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    NodePoolQueries queries;

    @Test
    void coloursEachPoolByHealthAndShowsItsWorkloadAndTheReasonOfEachUnhealthyNode() throws Exception {
        given(queries.clusters()).willReturn(List.of(simCluster()));

        mvc.perform(get("/nodepools"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<li class=\"pool health-healthy\" data-pool=\"pool-1\">"),
                        containsString("<li class=\"pool health-unhealthy\" data-pool=\"pool-2\">"),
                        containsString("<li class=\"pool health-degraded\" data-pool=\"pool-9\">"),
                        containsString("<a href=\"/namespaces/default/workloads/high-jax-trillium\">default/high-jax-trillium</a>"),
                        containsString("<span>pool-2-node-0</span>: <strong>Unhealthy</strong>"),
                        containsString("(NOT_READY)"), containsString("(MAINTENANCE_SCHEDULED)"),
                        containsString("4 nodes · 16 chips"), containsString("aria-current=\"page\">Node pools"))))
                .andExpect(content().string(allOf(matchesPattern("(?s).*data-pool=\"pool-2\">.*?<li class=\"muted\">nothing"
                        + " runs here: unusable until it heals</li>.*"),
                        matchesPattern("(?s).*data-pool=\"pool-9\">.*?<li class=\"muted\">free</li>.*"))));
    }

    @Test
    void groupsPoolsByAcceleratorThenTopology() throws Exception {
        given(queries.clusters()).willReturn(List.of(simCluster()));

        mvc.perform(get("/nodepools"))
                .andExpect(status().isOk())
                .andExpect(content().string(matchesPattern("(?s).*<span>tpu-v5p-slice</span>\\s*<span class=\"muted\">2x2x1</span>"
                        + ".*data-pool=\"pool-9\".*<span>tpu-v6e-slice</span>\\s*<span class=\"muted\">4x4</span>"
                        + ".*data-pool=\"pool-1\".*data-pool=\"pool-2\".*")));
    }

    @Test
    void showsAStaleClusterPoolsAsUnknownAndCountsPoolsByHealth() throws Exception {
        given(queries.clusters()).willReturn(List.of(simCluster(), staleCluster()));

        mvc.perform(get("/nodepools"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("Stale: pools shown Unknown"),
                        containsString("<li class=\"pool health-unknown\" data-pool=\"edge-1\">"),
                        containsString("1 Healthy"), containsString("1 Unhealthy"), containsString("1 Degraded"),
                        containsString("1 Unknown"), containsString("1 node · 4 chips"),
                        containsString("hx-trigger=\"sse:change\" hx-select=\"#live\""),
                        containsString("hx-get=\"/nodepools\""))));
    }

    @Test
    void showsTheChipsThatWorkloadsInPriorityOnlyModeHoldOutsideEveryQuotaAndMarksThem() throws Exception {
        given(queries.clusters()).willReturn(List.of(simCluster(), priorityOnlyCluster()));

        mvc.perform(get("/nodepools"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        matchesPattern("(?s).*Plus <strong>32 chips</strong>\\s*in priority-only mode, outside every"
                                + " ClusterQueue's quota:\\s*<span>2 node pools held by 1 workload</span>.*"),
                        matchesPattern("(?s).*default/no-queue</a>\\s*<span class=\"muted\">running</span>\\s*"
                                + "<span class=\"badge\">priority-only, no quota</span>.*"),
                        not(matchesPattern("(?s).*default/queued</a>\\s*<span class=\"muted\">running</span>\\s*"
                                + "<span class=\"badge\">.*")))));
    }

    @Test
    void saysNothingOfPriorityOnlyModeWhenNoWorkloadIsInIt() throws Exception {
        given(queries.clusters()).willReturn(List.of(simCluster()));

        mvc.perform(get("/nodepools"))
                .andExpect(status().isOk())
                .andExpect(content().string(not(containsString("priority-only"))));
    }

    @Test
    void explainsWhenNoClusterIsConnected() throws Exception {
        given(queries.clusters()).willReturn(List.of());

        mvc.perform(get("/nodepools"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("No cluster connected yet")));
    }
}
