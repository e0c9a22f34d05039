package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.ReportKind;
import dev.platform.scheduler.testsupport.ControllerSliceTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.List;

import static org.hamcrest.Matchers.containsString;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** The agent protocol's HTTP side: what the gateway checks before a report or result reaches its service. */
class AgentGatewayControllerTest extends ControllerSliceTest {

    @Autowired
    AgentCommandService agentCommands;

    @Autowired
    JsonMapper json;

    /** A report as an agent sends it (every field written), of {@code cluster} by {@code agentId}. */
    private String report(String cluster, String agentId, long sequence, ReportKind kind) {
        return json.writeValueAsString(new AgentReport(cluster, agentId, true, sequence,
                Instant.parse("2026-01-01T00:00:00Z"), kind, List.of(), List.of(), List.of(), List.of()));
    }

    @Test
    void anAcceptedReportAnswersTheServicesOutcome() throws Exception {
        given(agentReports.apply(eq("prod-1"), isNull(), any())).willReturn(new AgentReportService.ReportOutcome("prod-1", 7, true,
                List.of(new AgentReportService.RejectedSubmission("team-a", "train", "js-1", "no queue"))));

        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report("prod-1", "agent-a", 7, ReportKind.FULL)))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.cluster").value("prod-1"))
                .andExpect(jsonPath("$.sequence").value(7))
                .andExpect(jsonPath("$.applied").value(true))
                .andExpect(jsonPath("$.rejectedSubmissions[0].jobSetUid").value("js-1"))
                .andExpect(jsonPath("$.rejectedSubmissions[0].message").value("no queue"));
        then(agentReports).should().apply(eq("prod-1"), isNull(), any(AgentReport.class));
    }

    @Test
    void aReportForAnotherClusterThanThePathIs400AndNotApplied() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report("prod-2", "agent-a", 1, ReportKind.FULL)))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.detail").value(containsString("posted for cluster prod-1")))
                .andExpect(jsonPath("$.errors").isArray());
        then(agentReports).shouldHaveNoInteractions();
    }

    @Test
    void aReportWithoutAgentIdOrKindIs400() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report("prod-1", null, 1, ReportKind.FULL)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("agentId is required"));
        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report("prod-1", "agent-a", 1, null)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value("kind is required: FULL or DELTA"));
        then(agentReports).shouldHaveNoInteractions();
    }

    @Test
    void aReportFailingItsChecksIsRefusedWhole() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report("prod-1", "agent-a", -1, ReportKind.DELTA)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("nothing of it was applied: sequence -1 is negative")));
        then(agentReports).shouldHaveNoInteractions();
    }

    @Test
    void aClusterNameThatIsNoKubernetesNameIs400() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/Prod_1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report(null, "agent-a", 1, ReportKind.FULL)))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.detail").value(containsString("is not a valid cluster name")));
        mvc.perform(get("/api/v1/agent/clusters/Prod_1/commands"))
                .andExpect(status().isBadRequest());
        then(agentReports).shouldHaveNoInteractions();
        then(agentCommands).shouldHaveNoInteractions();
    }

    @Test
    void aBodyThatIsNoJsonIs400InTheProblemShape() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"agentId\":"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.errors").isEmpty());
    }

    @Test
    void aPollPassesItsCursorAndWaitAndAnswersTheCommands() throws Exception {
        given(agentCommands.poll("prod-1", 41L, 20)).willReturn(List.of(new AgentCommand(42, CommandType.STOP,
                "uid-1", "team-a", "train", Instant.parse("2026-01-01T00:05:00Z"), null)));

        mvc.perform(get("/api/v1/agent/clusters/prod-1/commands").param("after", "41").param("waitSeconds", "20"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$[0].id").value(42))
                .andExpect(jsonPath("$[0].type").value("STOP"))
                .andExpect(jsonPath("$[0].workloadUid").value("uid-1"))
                .andExpect(jsonPath("$[0].expiresAt").value("2026-01-01T00:05:00Z"));
    }

    @Test
    void aPollWithoutCursorAsksForEveryUnfinishedCommandWithoutWaiting() throws Exception {
        given(agentCommands.poll(anyString(), isNull(), anyInt())).willReturn(List.of());

        mvc.perform(get("/api/v1/agent/clusters/prod-1/commands"))
                .andExpect(status().isOk())
                .andExpect(content().json("[]"));
        then(agentCommands).should().poll("prod-1", null, 0);
    }

    @Test
    void aResultIsRecordedAndAnswered204() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/commands/42/result").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"commandId\":42,\"status\":\"SUCCEEDED\",\"agentId\":\"agent-a\"}"))
                .andExpect(status().isNoContent());
        then(agentCommands).should().recordResult(eq("prod-1"), eq(42L), any(CommandResult.class));
    }

    @Test
    void aCommandIdThatIsNoNumberIs400() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/commands/last/result").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"commandId\":42,\"status\":\"" + CommandStatus.SUCCEEDED + "\"}"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        then(agentCommands).should(never()).recordResult(anyString(), anyLong(), any());
    }

    @Test
    void anUnknownReportKindIs400() throws Exception {
        mvc.perform(post("/api/v1/agent/clusters/prod-1/reports").contentType(MediaType.APPLICATION_JSON)
                        .content(report("prod-1", "agent-a", 1, ReportKind.FULL).replace("\"FULL\"", "\"PARTIAL\"")))
                .andExpect(status().isBadRequest());
        then(agentReports).shouldHaveNoInteractions();
    }
}
