package dev.platform.scheduler.identity;

import dev.platform.scheduler.testsupport.ControllerSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.util.ReflectionTestUtils;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.BDDMockito.willThrow;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** API tokens over REST: the secret in the 201 only, never in lists; the request's fields passed on as asked. */
class TokenControllerTest extends ControllerSliceTest {

    private static final Instant CREATED = Instant.parse("2026-01-01T10:00:00Z");

    static ApiToken token(long id, String user, Instant expiresAt) {
        ApiToken token = new ApiToken(new byte[32], user, "ci", CREATED, "root", expiresAt);
        ReflectionTestUtils.setField(token, "id", id);
        return token;
    }

    @Test
    void aNewTokenIs201WithItsSecretOnce() throws Exception {
        given(apiTokens.issue("bob", "ci", Duration.ofSeconds(3600), ADMIN))
                .willReturn(new ApiTokens.Issued(token(7, "bob", CREATED.plusSeconds(3600)), "plt_secret"));

        mvc.perform(post("/api/v1/tokens").contentType(MediaType.APPLICATION_JSON)
                        .content("{\"user\":\"bob\",\"expiresInSeconds\":3600,\"description\":\"ci\"}"))
                .andExpect(status().isCreated())
                .andExpect(content().json("""
                        {"id":7,"token":"plt_secret","user":"bob","description":"ci",
                         "createdAt":"2026-01-01T10:00:00Z","expiresAt":"2026-01-01T11:00:00Z"}""", true));
    }

    @Test
    void noBodyAsksForTheCallersOwnTokenWithTheDefaults() throws Exception {
        given(apiTokens.issue(isNull(), isNull(), isNull(), any()))
                .willReturn(new ApiTokens.Issued(token(8, "root", null), "plt_other"));

        mvc.perform(post("/api/v1/tokens")).andExpect(status().isCreated());
        then(apiTokens).should().issue(null, null, null, ADMIN);
    }

    @Test
    void listsNeverShowTheSecretNorItsHash() throws Exception {
        callerIs(ENGINEER);
        given(apiTokens.list(null, ENGINEER)).willReturn(List.of(token(7, "bob", null)));

        mvc.perform(get("/api/v1/tokens"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.items[0].id").value(7))
                .andExpect(jsonPath("$.items[0].user").value("bob"))
                .andExpect(jsonPath("$.items[0].createdBy").value("root"))
                .andExpect(jsonPath("$.items[0].revokedAt").doesNotExist())
                .andExpect(jsonPath("$.items[0].token").doesNotExist())
                .andExpect(jsonPath("$.items[0].tokenHash").doesNotExist());
    }

    @Test
    void anotherUsersTokensAreTheServicesToRefuse() throws Exception {
        callerIs(ENGINEER);
        given(apiTokens.list("alice", ENGINEER)).willThrow(new Refusal(Refusal.Kind.Forbidden, "Forbidden",
                "only an Admin lists another user's tokens", List.of()));

        mvc.perform(get("/api/v1/tokens").param("user", "alice"))
                .andExpect(status().isForbidden())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
    }

    @Test
    void aRevokeIs204AndANonNumericIdIs400() throws Exception {
        mvc.perform(delete("/api/v1/tokens/7")).andExpect(status().isNoContent());
        then(apiTokens).should().revoke(7, ADMIN);

        willThrow(Refusal.notFound("API token", "9")).given(apiTokens).revoke(9, ADMIN);
        mvc.perform(delete("/api/v1/tokens/9")).andExpect(status().isNotFound());
        mvc.perform(delete("/api/v1/tokens/seven")).andExpect(status().isBadRequest());
    }
}
