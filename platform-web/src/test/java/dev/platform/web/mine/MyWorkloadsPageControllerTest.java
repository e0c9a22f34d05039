package dev.platform.web.mine;

import dev.platform.api.reason.PendingReason;
import dev.platform.web.console.CurrentCaller;
import dev.platform.web.console.WorkloadLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.util.List;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.ENGINEER;
import static dev.platform.web.console.ConsoleFixtures.T0;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(MyWorkloadsPageController.class)
class MyWorkloadsPageControllerTest {

    @Autowired
    MockMvc mvc;

    @MockitoBean
    MyWorkloadsQueries queries;

    @MockitoBean
    CurrentCaller caller;

    @BeforeEach
    void anEngineer() {
        given(caller.get()).willReturn(Optional.of(ENGINEER));
    }

    @Test
    void anEngineerSeesTheirOwnWorkloadsInEveryStateWithALinkToOlderOnes() throws Exception {
        given(queries.workloads(ENGINEER, new MyWorkloadsQueries.Filter(true, null, null, null), null, 50))
                .willReturn(new MyWorkloadsQueries.Page(List.of(
                        line("waiting", "Pending", 0, PendingReason.WaitingForQuota),
                        line("done", "Finished", null, null),
                        line("never", "Pending", null, PendingReason.ExceedsMaxQuota)), "c2"));

        mvc.perform(get("/workloads"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("<h1>My workloads</h1>"),
                        containsString("aria-current=\"page\">My workloads</a>"),
                        containsString("href=\"/namespaces/vision-train/workloads/waiting\""),
                        containsString("href=\"/namespaces/vision-train/workloads/done\""), containsString(">Finished<"),
                        containsString("Waiting for quota to free up"), containsString("<td>0 / 0</td>"),
                        containsString("<option value=\"vision-train\">vision-train</option>"),
                        containsString("href=\"/workloads?who=me&amp;state=&amp;namespace=&amp;queue=&amp;cursor=c2\""), not(containsString(">Newest<")))));
    }

    @Test
    void theFiltersReachTheQueryAndTheNextPageKeepsThem() throws Exception {
        MyWorkloadsQueries.Filter filter = new MyWorkloadsQueries.Filter(false, "Finished", "vision-train", "lq");
        given(queries.workloads(ENGINEER, filter, "c2", 50)).willReturn(new MyWorkloadsQueries.Page(List.of(), null));

        mvc.perform(get("/workloads").param("who", "team").param("state", "Finished").param("namespace", "vision-train")
                        .param("queue", "lq").param("cursor", "c2"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("No workloads match."),
                        containsString("<option value=\"team\" selected=\"selected\">my teams'</option>"),
                        containsString("<option value=\"Finished\" selected=\"selected\">Finished</option>"),
                        containsString("href=\"/workloads?who=team&amp;state=Finished&amp;namespace=vision-train&amp;queue=lq\""),
                        not(containsString(">Older<")))));
    }

    private static WorkloadLine line(String name, String state, Integer position, PendingReason reason) {
        return new WorkloadLine("vision-train", name, "JobSet", state, "lq", "cq", 0, position, position,
                reason, null, T0, null);
    }
}
