package dev.platform.web.token;

import dev.platform.web.console.CurrentCaller;
import dev.platform.web.token.ApiTokenAccess.CreatedToken;
import dev.platform.web.token.ApiTokenAccess.TokenLine;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.platform.web.console.ConsoleFixtures.ADMIN;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.BDDMockito.given;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.never;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.flash;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.redirectedUrl;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

@WebMvcTest(TokenPageController.class)
class TokenPageControllerTest {

    static final Instant CREATED = Instant.parse("2026-03-01T10:00:00Z");
    static final TokenLine LAPTOP = new TokenLine(7, "laptop", CREATED, Instant.parse("2099-01-01T00:00:00Z"), null);
    static final TokenLine OLD = new TokenLine(3, "old ci", CREATED, CREATED.plusSeconds(60), null);
    static final TokenLine REVOKED = new TokenLine(5, "leaked", CREATED, Instant.parse("2099-01-01T00:00:00Z"),
            Instant.parse("2026-03-01T11:00:00Z"));

    @Autowired
    MockMvc mvc;

    @MockitoBean
    ApiTokenAccess tokens;

    @MockitoBean
    CurrentCaller caller;

    @BeforeEach
    void anAdminWithOnlyAPassword() {
        given(caller.get()).willReturn(Optional.of(ADMIN));
    }

    @Test
    void listsTheCallersTokensWithTheirStateAndNeverASecret() throws Exception {
        given(tokens.ownTokens(ADMIN)).willReturn(List.of(OLD, REVOKED, LAPTOP,
                new TokenLine(9, "bootstrap", CREATED, null, null)));

        mvc.perform(get("/tokens"))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("Your API tokens"),
                        containsString("laptop"), containsString("badge ok\">Valid"),
                        containsString("old ci"), containsString("badge warn\">Expired"),
                        containsString("leaked"), containsString("badge bad\">Revoked"),
                        containsString("never (the bootstrap token)"),
                        containsString("action=\"/tokens/7/revoke\""), not(containsString("action=\"/tokens/5/revoke\"")),
                        not(containsString("class=\"secret\"")), containsString("aria-current=\"page\">API tokens"))));
    }

    @Test
    void aNewTokensSecretIsShownOnceOnThePageTheFormRedirectsTo() throws Exception {
        CreatedToken created = new CreatedToken(new TokenLine(8, "notebook", CREATED, CREATED.plus(Duration.ofDays(30)), null),
                "plt_secret-shown-once");
        given(tokens.create(ADMIN, "notebook", Duration.ofDays(30))).willReturn(created);
        given(tokens.ownTokens(ADMIN)).willReturn(List.of(LAPTOP));

        mvc.perform(post("/tokens").param("description", "notebook").param("lifetimeDays", "30"))
                .andExpect(redirectedUrl("/tokens"))
                .andExpect(flash().attribute("created", created))
                .andExpect(content().string(not(containsString("plt_secret-shown-once"))));

        mvc.perform(get("/tokens").flashAttr("created", created))
                .andExpect(status().isOk())
                .andExpect(content().string(allOf(containsString("shown this once"),
                        containsString("<pre class=\"secret\">plt_secret-shown-once</pre>"),
                        containsString("export TOKEN=plt_secret-shown-once"))));
        mvc.perform(get("/tokens")).andExpect(content().string(not(containsString("plt_secret-shown-once"))));
        then(tokens).should().create(any(), any(), any());
    }

    @Test
    void aLifetimeOutOfRangeIsExplainedAndCreatesNothing() throws Exception {
        mvc.perform(post("/tokens").param("description", "x").param("lifetimeDays", "1000"))
                .andExpect(status().isBadRequest())
                .andExpect(content().string(containsString("whole number of days from 1 to 366, not &quot;1000&quot;")));

        then(tokens).should(never()).create(any(), any(), any());
    }

    @Test
    void aRefusedDescriptionIsShownAsTheServiceSaysIt() throws Exception {
        given(tokens.create(any(), any(), any())).willThrow(new IllegalArgumentException("description: at most 200 characters"));

        mvc.perform(post("/tokens").param("description", "x".repeat(300)))
                .andExpect(status().isBadRequest())
                .andExpect(content().string(containsString("description: at most 200 characters")));
    }

    @Test
    void thePageOffersATokenAsAKubeconfig() throws Exception {
        mvc.perform(get("/tokens"))
                .andExpect(content().string(allOf(containsString("New token as kubeconfig"),
                        containsString("action=\"/tokens/kubeconfig\""),
                        containsString("kubectl --kubeconfig=platform.kubeconfig version"))));
    }

    @Test
    void aKubeconfigIsDownloadedAsTheAnswerToTheFormNamingTheConsolesHost() throws Exception {
        given(tokens.kubeconfig(ADMIN, "laptop", Duration.ofDays(7), "console.example.com"))
                .willReturn("apiVersion: v1\nkind: Config\n");

        mvc.perform(post("/tokens/kubeconfig").param("description", "laptop").param("lifetimeDays", "7")
                        .accept("text/html").with(request -> {
                            request.setServerName("console.example.com");
                            return request;
                        }))
                .andExpect(status().isOk())
                .andExpect(content().contentTypeCompatibleWith("application/yaml"))
                .andExpect(header().string("Content-Disposition", "attachment; filename=\"platform.kubeconfig\""))
                .andExpect(header().string("Cache-Control", "no-store"))
                .andExpect(content().string("apiVersion: v1\nkind: Config\n"));
    }

    @Test
    void aRefusedKubeconfigIsExplainedOnThePage() throws Exception {
        given(tokens.kubeconfig(any(), any(), any(), any())).willThrow(new IllegalArgumentException(
                "the scheduler serves no HTTPS"));

        mvc.perform(post("/tokens/kubeconfig").param("lifetimeDays", "7"))
                .andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith("text/html"))
                .andExpect(content().string(containsString("the scheduler serves no HTTPS")));
        mvc.perform(post("/tokens/kubeconfig").param("lifetimeDays", "0"))
                .andExpect(status().isBadRequest())
                .andExpect(content().string(containsString("whole number of days from 1 to 366")));
        then(tokens).should().kubeconfig(any(), any(), any(), any());
    }

    @Test
    void revokingSaysWhatHappened() throws Exception {
        given(tokens.revoke(ADMIN, 7)).willReturn(true);

        mvc.perform(post("/tokens/7/revoke"))
                .andExpect(redirectedUrl("/tokens"))
                .andExpect(flash().attribute("notice", "Revoked token 7: requests with it are refused from now on."));
        mvc.perform(post("/tokens/9/revoke"))
                .andExpect(flash().attribute("notice", "You have no token 9."));
    }
}
