package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.BrowserSession;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.TestIdentityProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.time.Duration;
import java.util.regex.Pattern;
import java.util.regex.Matcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console as a browser uses it: the login form with its CSRF token and throttle, a session shared
 * through PostgreSQL, logout, a login through the identity provider, an Admin's LocalQueue buttons, and the
 * security headers.
 */
class ConsoleLoginTest extends PlatformApplicationTest {

    private static final String PASSWORD = "long-enough-password";

    @BeforeEach
    void aTeamAndItsLead() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never") + """
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec: {namespaces: [team-a], members: [{user: alice, role: TeamLead}]}
                """).status()).isEqualTo(200);
        assertThat(api.postJson("/api/v1/users", "{\"name\": \"alice\", \"password\": \"" + PASSWORD + "\"}").status())
                .isEqualTo(201);
    }

    @Test
    void aBrowserIsSentToTheLoginPageLogsInAndOutWithItsSession() {
        BrowserSession browser = new BrowserSession(port);
        Response anonymous = browser.get("/queues");
        assertThat(anonymous.status()).isEqualTo(302);
        assertThat(anonymous.header("Location")).endsWith("/login");

        Response loggedIn = browser.logIn("alice", PASSWORD);
        assertThat(loggedIn.status()).isEqualTo(302);
        assertThat(loggedIn.header("Location")).doesNotContain("error");
        Response queues = browser.get("/queues");
        assertThat(queues.status()).isEqualTo(200);
        assertThat(queues.body()).contains("<span class=\"who-name\">alice</span>", "<span class=\"who-roles\">vision</span>",
                "href=\"/queues/cq\"", "href=\"/teams\"", "href=\"/hotswaps\"").doesNotContain("href=\"/nodepools\"");
        assertThat(jdbc.sql("SELECT count(*) FROM spring_session WHERE principal_name = 'alice'").query(Long.class).single())
                .as("the session lives in PostgreSQL, for every replica").isOne();

        Response loggedOut = browser.postForm("/logout", Map.of(), BrowserSession.csrfOf(queues));
        assertThat(loggedOut.header("Location")).endsWith("/login?logout");
        assertThat(browser.get("/queues").status()).isEqualTo(302);
    }

    @Test
    void aFormPostedWithoutItsCsrfTokenIsRefusedAndChangesNothing() {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("w", "lq", "1", null)).status())
                .isEqualTo(201);
        BrowserSession browser = new BrowserSession(port);
        browser.logIn("alice", PASSWORD);
        Response page = browser.get("/namespaces/team-a/workloads/w");
        assertThat(page.body()).contains("name=\"_csrf\"");

        Response forged = browser.postForm("/namespaces/team-a/workloads/w/cancel", Map.of(), null);
        Response wrongToken = browser.postForm("/namespaces/team-a/workloads/w/cancel", Map.of(), "not-the-token");

        assertThat(forged.status()).isEqualTo(403);
        assertThat(wrongToken.status()).isEqualTo(403);
        assertThat(forged.body()).as("the token is what is wrong, not alice's roles (she leads team-a)")
                .contains("The form has expired", "security token (CSRF)").doesNotContain("Not for your roles");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/w").json().get("state").asString()).isNotEqualTo("Finished");
        Response cancelled = browser.postForm("/namespaces/team-a/workloads/w/cancel", Map.of(),
                BrowserSession.csrfOf(page));
        assertThat(cancelled.status()).isEqualTo(302);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/w").json().get("state").asString()).isEqualTo("Finished");
    }

    @Test
    void aUserWithOnlyAPasswordCreatesAnApiTokenInTheConsoleUsesItAndRevokesIt() {
        BrowserSession browser = new BrowserSession(port);
        browser.logIn("alice", PASSWORD);
        Response page = browser.get("/tokens");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("You have no API token yet.");

        Response created = browser.postForm("/tokens", Map.of("description", "notebook", "lifetimeDays", "7"),
                BrowserSession.csrfOf(page));
        assertThat(created.status()).as("post-redirect-get").isEqualTo(302);
        assertThat(created.header("Location")).endsWith("/tokens");
        Response shown = browser.get("/tokens");
        Matcher secret = Pattern.compile("<pre class=\"secret\">(plt_[^<]+)</pre>").matcher(shown.body());
        assertThat(secret.find()).as(shown.body()).isTrue();
        assertThat(shown.header("Cache-Control")).contains("no-store");
        Response reloaded = browser.get("/tokens");
        assertThat(reloaded.body()).as("a reload shows the secret no more").doesNotContain(secret.group(1));
        assertThat(jdbc.sql("SELECT count(*) FROM api_token WHERE user_name = 'alice'").query(Long.class).single())
                .as("a reload mints no other token").isEqualTo(1);
        Response me = api.as(secret.group(1)).get("/api/v1/me");
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().get("name").asString()).isEqualTo("alice");

        Response listed = browser.get("/tokens");
        assertThat(listed.body()).contains("notebook", "Valid").doesNotContain(secret.group(1));
        long id = jdbc.sql("SELECT id FROM api_token WHERE user_name = 'alice'").query(Long.class).single();
        Response revoked = browser.postForm("/tokens/" + id + "/revoke", Map.of(), BrowserSession.csrfOf(listed));
        assertThat(revoked.status()).isEqualTo(302);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(api.as(secret.group(1)).get("/api/v1/me").status()).isEqualTo(401));
        assertThat(browser.get("/tokens").body()).contains("Revoked");
    }

    @Test
    void aPathNoPageServesIsNotFoundNotARefusalByRole() {
        BrowserSession browser = new BrowserSession(port);
        browser.logIn("alice", PASSWORD);

        Response missing = browser.get("/no-such-page");

        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body()).contains("That page</span> does not exist").doesNotContain("Not for your roles");
        assertThat(browser.get("/nodepools").body()).as("a page alice's roles do not allow").contains("Not for your roles");
    }

    @Test
    void anAdminStopsAndResumesALocalQueueFromTheTeamPageAndNobodyElseCan() {
        assertThat(api.postJson("/api/v1/users", "{\"name\": \"ada\", \"clusterRole\": \"Admin\", \"password\": \""
                + PASSWORD + "\"}").status()).isEqualTo(201);
        BrowserSession admin = new BrowserSession(port);
        admin.logIn("ada", PASSWORD);
        Response page = admin.get("/teams?team=vision");
        assertThat(page.body()).contains("<span class=\"badge ok\">None</span>",
                "action=\"/namespaces/team-a/localqueues/lq/stop\"",
                "action=\"/namespaces/team-a/localqueues/lq/stop?drain=true\"");

        Response forged = admin.postForm("/namespaces/team-a/localqueues/lq/stop", Map.of("team", "vision"), null);
        assertThat(forged.status()).as("no CSRF token").isEqualTo(403);
        assertThat(stopPolicyOfLq()).isEqualTo("None");

        Response held = admin.postForm("/namespaces/team-a/localqueues/lq/stop", Map.of("team", "vision"),
                BrowserSession.csrfOf(page));
        assertThat(held.status()).isEqualTo(302);
        assertThat(held.header("Location")).endsWith("/teams?team=vision");
        assertThat(stopPolicyOfLq()).isEqualTo("Hold");
        Response heldPage = admin.get(held.header("Location"));
        assertThat(heldPage.body()).contains("Stopped LocalQueue team-a/lq", "<span class=\"badge warn\">Hold</span>",
                "action=\"/namespaces/team-a/localqueues/lq/resume\"")
                .doesNotContain("action=\"/namespaces/team-a/localqueues/lq/stop\"");

        BrowserSession lead = new BrowserSession(port);
        lead.logIn("alice", PASSWORD);
        Response leadPage = lead.get("/teams?team=vision");
        assertThat(leadPage.status()).isEqualTo(200);
        assertThat(leadPage.body()).as("a lead sees the stop policy, not the buttons")
                .contains("<span class=\"badge warn\">Hold</span>").doesNotContain("/localqueues/lq/");
        Response refused = lead.postForm("/namespaces/team-a/localqueues/lq/resume", Map.of("team", "vision"),
                BrowserSession.csrfOf(leadPage));
        assertThat(refused.status()).as("a TeamLead may not change a LocalQueue").isEqualTo(403);
        assertThat(stopPolicyOfLq()).isEqualTo("Hold");

        Response resumed = admin.postForm("/namespaces/team-a/localqueues/lq/resume", Map.of("team", "vision"),
                BrowserSession.csrfOf(heldPage));
        assertThat(resumed.status()).isEqualTo(302);
        assertThat(stopPolicyOfLq()).isEqualTo("None");
        assertThat(admin.get(resumed.header("Location")).body()).contains("Resumed LocalQueue team-a/lq",
                "<span class=\"badge ok\">None</span>");
    }

    private String stopPolicyOfLq() {
        return api.get("/api/v1/namespaces/team-a/localqueues/lq").json().get("stopPolicy").asString();
    }

    @Test
    void repeatedWrongPasswordsThrottleThatUserFromThatAddress() {
        // A user of this test alone: the throttle outlives the test in the shared application.
        assertThat(api.postJson("/api/v1/users", "{\"name\": \"guessed\", \"password\": \"" + PASSWORD + "\"}")
                .status()).isEqualTo(201);
        BrowserSession browser = new BrowserSession(port);
        for (int attempt = 1; attempt <= 5; attempt++) {
            assertThat(browser.logIn("guessed", "wrong-password-" + attempt).header("Location")).endsWith("/login?error=bad");
        }

        Response throttled = browser.logIn("guessed", PASSWORD);

        assertThat(throttled.header("Location")).contains("/login?error=throttled&retry=");
        assertThat(browser.get(throttled.header("Location")).body()).contains("Too many failed logins. Try again in");
        assertThat(browser.get("/queues").status()).as("the right password did not log in while throttled")
                .isEqualTo(302);
        assertThat(new BrowserSession(port).logIn("nobody-" + port, "x").header("Location"))
                .as("another user name is not throttled").endsWith("/login?error=bad");
    }

    @Test
    void aLoginThroughTheIdentityProviderOpensASessionWithTheGroupsRoles() {
        BrowserSession browser = new BrowserSession(port);
        assertThat(browser.get("/login").body()).contains("href=\"/oauth2/authorization/" + TestIdentityProvider.REGISTRATION
                + "\">Test IdP</a>");
        TestIdentityProvider.get().logInNext("carol@example.com", "sre");

        Response toProvider = browser.get("/oauth2/authorization/" + TestIdentityProvider.REGISTRATION);
        assertThat(toProvider.status()).isEqualTo(302);
        Response back = browser.get(toProvider.header("Location"));
        assertThat(back.status()).isEqualTo(302);
        Response session = browser.get(back.header("Location"));
        assertThat(session.status()).as(session.body()).isEqualTo(302);
        assertThat(session.header("Location")).doesNotContain("error");

        Response nodePools = browser.get("/nodepools");
        assertThat(nodePools.status()).as("group sre grants Ops").isEqualTo(200);
        assertThat(nodePools.body()).contains("<span class=\"who-name\">carol@example.com</span>",
                "<span class=\"who-roles\">Ops</span>");
    }

    @Test
    void pagesAndTheApiCarryTheSecurityHeaders() {
        Response page = api.get("/queues", "text/html");
        Response json = api.get("/api/v1/me");

        assertThat(page.header("Content-Security-Policy")).contains("default-src 'self'", "script-src 'self'",
                "frame-ancestors 'none'");
        assertThat(page.header("X-Frame-Options")).isEqualTo("DENY");
        assertThat(json.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(json.header("Referrer-Policy")).isEqualTo("same-origin");
        assertThat(json.header("Cache-Control")).contains("no-store");
        assertThat(page.headers().allValues("Set-Cookie")).as("a bearer request gets no session")
                .noneMatch(cookie -> cookie.startsWith("SESSION="));
    }
}
