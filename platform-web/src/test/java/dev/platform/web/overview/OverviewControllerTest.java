package dev.platform.web.overview;

import dev.platform.web.overview.ConsoleQueries.ClusterQueueSummary;
import dev.platform.web.overview.ConsoleQueries.QuotaLine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(OverviewController.class)
class OverviewControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ConsoleQueries queries;

    @Test
    void listsClusterQueuesWithQuotaAndStatus() throws Exception {
        given(queries.clusterQueues()).willReturn(List.of(
                new ClusterQueueSummary("tpu-training-cq", null, "BestEffortFIFO", true, "Ready",
                        List.of(new QuotaLine("tpu-v6e-slice", "google.com/tpu", "32", null, null))),
                new ClusterQueueSummary("team-b", "research", "StrictFIFO", false, "FlavorNotFound", List.of())));

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("tpu-training-cq")))
                .andExpect(content().string(containsString("tpu-v6e-slice / google.com/tpu: 32")))
                .andExpect(content().string(containsString("FlavorNotFound")))
                .andExpect(content().string(containsString("research")));
    }

    @Test
    void explainsHowToStartWhenThereIsNoQueue() throws Exception {
        given(queries.clusterQueues()).willReturn(List.of());

        mvc.perform(get("/"))
                .andExpect(status().isOk())
                .andExpect(content().string(containsString("No ClusterQueues yet")));
    }

    /** The console module has no application class of its own; this one boots the slice. */
    @SpringBootApplication
    static class ConsoleSlice {
    }
}
