package dev.platform.web.overview;

import dev.platform.web.hotswap.HotswapQueries;
import dev.platform.web.nodepool.NodePoolQueries;
import dev.platform.web.overview.OverviewQueries.CohortUsage;
import dev.platform.web.overview.OverviewQueries.Overview;
import dev.platform.web.console.CurrentCaller;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import org.springframework.util.StringUtils;
import java.util.List;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static dev.platform.web.console.ConsoleFixtures.ENGINEER;
import static dev.platform.web.console.ConsoleFixtures.LEAD;
import static dev.platform.web.console.ConsoleFixtures.T0;
import static dev.platform.web.console.ConsoleFixtures.borrowingQueue;
import static dev.platform.web.console.ConsoleFixtures.recoveredHotswap;
import static dev.platform.web.console.ConsoleFixtures.priorityOnlyCluster;
import static dev.platform.web.console.ConsoleFixtures.simCluster;
import static dev.platform.web.console.ConsoleFixtures.staleCluster;
import static dev.platform.web.console.ConsoleFixtures.preemption;
import static dev.platform.web.console.ConsoleFixtures.trainingQueue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(OverviewController.class)
class OverviewControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    OverviewQueries queries;

    @MockitoBean
    HotswapQueries hotswaps;

    @MockitoBean
    NodePoolQueries nodePools;

    @MockitoBean
    CurrentCaller caller;

    @BeforeEach
    void asAdmin() {
        given(caller.get()).willReturn(Optional.of(ADMIN));
    }

    @Test
    void anEngineerSeesTheirQueuesButNeitherInfrastructureNorAuditsNorTheirLinks() throws Exception {
        given(caller.get()).willReturn(Optional.of(ENGINEER));
        given(queries.overview(ENGINEER, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()), List.of()));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("href=\"/queues/tpu-training-cq\""),
                        containsString("<span class=\"who-name\">bob</span>"),
                        containsString("<span class=\"who-roles\">vision</span>"),
                        containsString("Log out"),
                        not(containsString("Latest hotswaps")), not(containsString("Latest preemptions")),
                        not(containsString("Node pools")), not(containsString("href=\"/hotswaps\"")),
                        not(containsString("href=\"/preemptions\"")), not(containsString("href=\"/configuration\"")),
                        not(containsString("href=\"/teams\"")))));
        then(hotswaps).shouldHaveNoInteractions();
        then(nodePools).shouldHaveNoInteractions();
    }

    @Test
    void aTeamLeadAlsoSeesTheirPreemptionsAndTheTeamPageLink() throws Exception {
        given(caller.get()).willReturn(Optional.of(LEAD));
        given(queries.overview(LEAD, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()),
                List.of(preemption(2, "low-jax-trillium"))));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("Latest preemptions"), containsString("href=\"/teams\""),
                        containsString("href=\"/preemptions\""), not(containsString("Latest hotswaps")),
                        containsString("href=\"/hotswaps\""), not(containsString("href=\"/nodepools\"")))));
    }

    @Test
    void showsCohortsAndQueuesWithUsageCountsAndLatestPreemptions() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(
                List.of(new CohortUsage("research", "org", List.of(borrowingQueue()))),
                List.of(trainingQueue()),
                List.of(preemption(2, "low-jax-trillium"))));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("Cohort <span>research</span>"), containsString("in org"),
                        containsString("href=\"/queues/team-b\""),
                        containsString("tpu-v6e-slice / google.com/tpu"), containsString("32 of 32"),
                        containsString("width:100%"),
                        containsString("20 of 16"), containsString("borrowed 4"), containsString("borrow ≤ 8"),
                        containsString("lend ≤ 4"), containsString("width:80%"), containsString("width:20%"),
                        containsString("ClusterQueues without a cohort"),
                        containsString("high-jax-trillium"), containsString("default/low-jax-trillium"),
                        containsString("href=\"/namespaces/default/workloads/low-jax-trillium\""),
                        containsString("InClusterQueue"),
                        containsString("aria-current=\"page\">Overview"))));
    }

    @Test
    void besideAFullQueueShowsTheChipsThatPriorityOnlyWorkloadsHoldOutsideItsQuota() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()), List.of()));
        given(nodePools.clusters()).willReturn(List.of(simCluster(), priorityOnlyCluster()));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("32 of 32"),
                        containsString("Plus <strong>32 chips</strong>"),
                        containsString("<span>2 node pools held by 1 workload</span>"))));
    }

    @Test
    void theQueuesWithoutACohortAreHeadedOnce() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()), List.of()));

        String page = mvc.perform(get("/")).andExpect(status().isOk()).andReturn().getResponse().getContentAsString();

        assertThat(StringUtils.countOccurrencesOf(page, "ClusterQueues without a cohort")).isOne();
    }

    @Test
    void countsPendingAndAdmittedWorkloads() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()), List.of()));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("<td class=\"num\">1</td>"),
                        containsString("No preemptions yet."))));
    }

    @Test
    void explainsHowToStartWhenThereIsNoQueue() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(List.of(), List.of(), List.of()));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("No ClusterQueues yet"),
                        not(containsString("ClusterQueues without a cohort")))));
    }

    @Test
    void showsTheLatestHotswapsAndNodePoolHealthCounts() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()), List.of()));
        given(hotswaps.latest(ADMIN, 5)).willReturn(List.of(recoveredHotswap(7, T0)));
        given(nodePools.clusters()).willReturn(List.of(simCluster(), staleCluster()));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("<span class=\"badge health-healthy\">1 Healthy</span>"),
                        containsString("<span class=\"badge health-degraded\">1 Degraded</span>"),
                        containsString("<span class=\"badge health-unhealthy\">1 Unhealthy</span>"),
                        containsString("<span class=\"badge health-unknown\">1 Unknown</span>"),
                        containsString("The 5 latest hotswaps"), containsString("sim/pool-2"),
                        containsString("<a class=\"victim\" href=\"/namespaces/default/workloads/low-jax-trillium\""),
                        containsString("MTTR 4.0 s"), containsString("href=\"/hotswaps\""),
                        containsString("sse-connect=\"/console/events\""))));
    }

    @Test
    void saysSoWhenThereIsNoHotswapOrPoolYet() throws Exception {
        given(queries.overview(ADMIN, 10)).willReturn(new Overview(List.of(), List.of(trainingQueue()), List.of()));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("No hotswaps yet."),
                        containsString("No cluster has reported a node pool yet."))));
    }
}
