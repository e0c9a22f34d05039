package dev.platform.web.configuration;

import dev.platform.web.configuration.ConfigurationQueries.ClusterQueuePolicies;
import dev.platform.web.configuration.ConfigurationQueries.CohortView;
import dev.platform.web.configuration.ConfigurationQueries.ConfigurationView;
import dev.platform.web.configuration.ConfigurationQueries.FlavorView;
import dev.platform.web.configuration.ConfigurationQueries.NamespaceView;
import dev.platform.web.configuration.ConfigurationQueries.PriorityClassView;
import dev.platform.web.configuration.ConfigurationQueries.QuotaLine;
import dev.platform.web.configuration.ConfigurationQueries.TeamView;
import dev.platform.web.console.LocalQueueView;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(ConfigurationPageController.class)
class ConfigurationPageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ConfigurationQueries queries;

    @Test
    void showsEveryKindWithItsPolicies() throws Exception {
        given(queries.configuration()).willReturn(new ConfigurationView(
                List.of(new FlavorView("tpu-v6e-slice", Map.of("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"),
                        List.of("google.com/tpu=present:NoSchedule"), List.of("google.com/tpu exists:NoSchedule"), null)),
                List.of(new CohortView("research", false, "org", "2", List.of(new QuotaLine("tpu-v5e", "google.com/tpu",
                        "8", null, null)), List.of("team-a", "team-b"))),
                List.of(new ClusterQueuePolicies("team-a", "research", "StrictFIFO", "team=a", "LowerPriority", "Any",
                        "LowerPriority (maxPriorityThreshold 100)", "TryNextFlavor", "MayStopSearch",
                        "PreemptionOverBorrowing", "1", "Hold",
                        List.of(new QuotaLine("tpu-v5e", "google.com/tpu", "16", "8", "4")))),
                List.of(new LocalQueueView("team-a", "lq-a", "team-a", "None")),
                List.of(new PriorityClassView("PriorityClass", "high-priority-job", 2000000, false, "PreemptLowerPriority",
                                "critical pods"),
                        new PriorityClassView("WorkloadPriorityClass", "batch", 100, false, null, null)),
                List.of(new NamespaceView("research", new TreeMap<>(
                        Map.of("team", "ml", "kubernetes.io/metadata.name", "research")))),
                List.of(new TeamView("ml", List.of("research"), List.of("alice (TeamLead)", "bob (Engineer)"),
                                List.of("batch", "high-priority-job")),
                        new TeamView("speech", List.of(), List.of(), null))));

        mvc.perform(get("/configuration"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(
                        containsString("cloud.google.com/gke-tpu-accelerator=tpu-v6e-slice"),
                        containsString("google.com/tpu=present:NoSchedule"),
                        containsString("research"), containsString("tpu-v5e / google.com/tpu: 8"),
                        containsString("team-a, team-b"),
                        containsString("StrictFIFO"), containsString("team=a"), containsString("Hold"),
                        containsString("LowerPriority (maxPriorityThreshold 100)"),
                        containsString("<dt>reclaimWithinCohort</dt><dd>Any</dd>"),
                        containsString("<dt>whenCanBorrow</dt><dd>TryNextFlavor</dd>"),
                        containsString("PreemptionOverBorrowing"),
                        containsString("tpu-v5e / google.com/tpu: 16"), containsString("borrow ≤ 8"),
                        containsString("lend ≤ 4"),
                        containsString("<td>team-a</td>"), containsString("<th scope=\"row\">lq-a</th>"),
                        containsString("high-priority-job"), containsString("2000000"),
                        containsString("WorkloadPriorityClass"), containsString("batch"),
                        containsString("<th scope=\"row\">research</th>"),
                        containsString("<a href=\"/teams?team=ml\">ml</a>"), containsString("<li>alice (TeamLead)</li>"),
                        containsString("<li>batch</li><li>high-priority-job</li>"),
                        containsString("<td class=\"empty\">any</td>"),
                        containsString("<li>kubernetes.io/metadata.name=research</li><li>team=ml</li>"),
                        containsString("aria-current=\"page\">Configuration"))));
    }

    @Test
    void saysNoneForEmptyKinds() throws Exception {
        given(queries.configuration()).willReturn(new ConfigurationView(List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of(), List.of()));

        mvc.perform(get("/configuration"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("None.")));
    }
}
