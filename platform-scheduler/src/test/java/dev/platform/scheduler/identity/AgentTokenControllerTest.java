package dev.platform.scheduler.identity;

import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.util.ReflectionTestUtils;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** Agent tokens of a cluster over REST: the secret in the 201 only, the cluster name checked, revoke by id. */
class AgentTokenControllerTest extends ControllerSliceTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    private static AgentToken token(long id) {
        AgentToken token = new AgentToken(new byte[32], "prod-1", "rotation", CREATED, "root", null);
        ReflectionTestUtils.setField(token, "id", id);
        return token;
    }

    @Test
    void aNewAgentTokenIs201WithItsSecretOnce() throws Exception {
        given(agentTokens.issue("prod-1", "rotation", Duration.ofDays(1), ADMIN))
                .willReturn(new AgentTokens.Issued(token(3), "agt_secret"));

        mvc.perform(post("/api/v1/clusters/prod-1/agent-tokens").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"expiresInSeconds\":86400,\"description\":\"rotation\"}"))
                .andExpect(status().isCreated())
                .andExpect(content().json("""
                        {"id":3,"cluster":"prod-1","token":"agt_secret","description":"rotation",
                         "createdAt":"2026-01-01T10:00:00Z","expiresAt":null}""", true));
    }

    @Test
    void aListShowsNoSecret() throws Exception {
        given(agentTokens.list("prod-1")).willReturn(List.of(token(3)));

        mvc.perform(get("/api/v1/clusters/prod-1/agent-tokens"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].id").value(3))
                .andExpect(jsonPath("$.items[0].cluster").value("prod-1"))
                .andExpect(jsonPath("$.items[0].createdBy").value("root"))
                .andExpect(jsonPath("$.items[0].token").doesNotExist());
    }

    @Test
    void aClusterNameThatIsNoKubernetesNameIs400() throws Exception {
        mvc.perform(post("/api/v1/clusters/Not_A_Name/agent-tokens"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
        mvc.perform(get("/api/v1/clusters/Not_A_Name/agent-tokens")).andExpect(status().isBadRequest());
        mvc.perform(delete("/api/v1/clusters/Not_A_Name/agent-tokens/3")).andExpect(status().isBadRequest());
        then(agentTokens).shouldHaveNoInteractions();
    }

    @Test
    void aRevokeIs204OrTheServices404() throws Exception {
        mvc.perform(delete("/api/v1/clusters/prod-1/agent-tokens/3")).andExpect(status().isNoContent());
        then(agentTokens).should().revoke("prod-1", 3, ADMIN);

        willThrow(Refusal.notFound("agent token of cluster prod-1", "4")).given(agentTokens).revoke("prod-1", 4, ADMIN);
        mvc.perform(delete("/api/v1/clusters/prod-1/agent-tokens/4"))
                .andExpect(status().isNotFound())
                .andExpect(jsonPath("$.detail").value("agent token of cluster prod-1 \"4\" not found"));
    }
}
