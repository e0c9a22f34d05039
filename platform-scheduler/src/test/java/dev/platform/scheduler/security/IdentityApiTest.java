package dev.platform.scheduler.security;

import dev.platform.scheduler.identity.AdminBootstrap;
import dev.platform.scheduler.identity.TokenSecrets;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Users, API tokens, the first Admin, and the audit of who did what. */
class IdentityApiTest extends PlatformApplicationTest {

    @Autowired
    AdminBootstrap bootstrap;

    /**
     * How long a change made beside this replica's API (another replica, SQL) may take to bite here: the token
     * cache's bound, plus the time of one request on a busy machine.
     */
    private static final Duration ELSEWHERE = Duration.ofSeconds(3);

    @Test
    void aTokenActsAsItsUserUntilRevokedOrExpiredAndStopsOnTheVeryNextRequest() {
        PlatformClient bob = api.as(userWithToken("bob", null));
        assertThat(bob.get("/api/v1/me").json().get("name").asString()).isEqualTo("bob");

        long id = bob.get("/api/v1/tokens").json().get("items").get(0).get("id").asLong();
        assertThat(bob.delete("/api/v1/tokens/" + id).status()).isEqualTo(204);
        Response afterRevocation = bob.get("/api/v1/me");
        assertThat(afterRevocation.status()).isEqualTo(401);
        assertThat(afterRevocation.header("WWW-Authenticate")).contains("Bearer", "invalid_token");

        PlatformClient expiring = api.as(token("bob"));
        assertThat(expiring.get("/api/v1/me").status()).isEqualTo(200);
        jdbc.sql("UPDATE api_token SET created_at = now() - interval '2 minutes', expires_at = now() - interval '1 second'"
                + " WHERE revoked_at IS NULL AND user_name = 'bob'").update();
        await().atMost(ELSEWHERE).until(() -> expiring.get("/api/v1/me").status() == 401);
    }

    @Test
    void aTokenRevokedBesideThisReplicasApiIsRefusedHereWithinTheBound() {
        PlatformClient bob = api.as(userWithToken("bob", null));
        assertThat(bob.get("/api/v1/me").status()).isEqualTo(200);

        // As another replica revokes it: this replica's cache is not told.
        jdbc.sql("UPDATE api_token SET revoked_at = now(), revoked_by = 'admin' WHERE user_name = 'bob'").update();
        await().atMost(ELSEWHERE).until(() -> bob.get("/api/v1/me").status() == 401);
    }

    @Test
    void aMembershipRemovedBesideThisReplicasApiEndsWithinTheBound() {
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: a}
                spec: {namespaces: [team-a], members: [{user: eng, role: Engineer}]}
                """).status()).isEqualTo(200);
        PlatformClient eng = api.as(userWithToken("eng", null));
        assertThat(eng.get("/api/v1/namespaces/team-a/workloads").status()).isEqualTo(200);

        jdbc.sql("DELETE FROM team_member WHERE user_name = 'eng'").update();
        await().atMost(ELSEWHERE).until(() -> eng.get("/api/v1/namespaces/team-a/workloads").status() == 403);
        assertThat(eng.get("/api/v1/me").json().get("teams")).isEmpty();
    }

    @Test
    void theSecretIsShownOnceStoredOnlyAsItsHashAndNeverListed() {
        createUser("bob", null);
        JsonNode issued = api.postJson("/api/v1/tokens", "{\"user\": \"bob\", \"expiresInSeconds\": 3600,"
                + " \"description\": \"ci\"}").json();
        String secret = issued.get("token").asString();

        assertThat(secret).startsWith(TokenSecrets.API_PREFIX).hasSizeGreaterThan(40);
        assertThat(issued.get("expiresAt").asString()).isNotBlank();
        byte[] stored = jdbc.sql("SELECT token_hash FROM api_token WHERE id = ?").param(issued.get("id").asLong())
                .query(byte[].class).single();
        assertThat(stored).isEqualTo(TokenSecrets.hash(secret));
        Response listed = api.get("/api/v1/tokens?user=bob");
        assertThat(listed.body()).doesNotContain(secret).doesNotContain("tokenHash");
        assertThat(listed.json().get("items").get(0).get("description").asString()).isEqualTo("ci");
        assertThat(api.postJson("/api/v1/tokens", "{\"expiresInSeconds\": 999999999}").status()).isEqualTo(422);
    }

    @Test
    void aUserIssuesTokensForThemselfOnlyAndCannotRevokeAnothersToken() {
        PlatformClient bob = api.as(userWithToken("bob", null));
        String alices = userWithToken("alice", null);

        assertThat(bob.postJson("/api/v1/tokens", "{\"user\": \"alice\"}").status()).isEqualTo(403);
        assertThat(bob.get("/api/v1/tokens?user=alice").status()).isEqualTo(403);
        long alicesId = api.get("/api/v1/tokens?user=alice").json().get("items").get(0).get("id").asLong();
        assertThat(bob.delete("/api/v1/tokens/" + alicesId).status()).isEqualTo(404);
        assertThat(api.as(alices).get("/api/v1/me").status()).isEqualTo(200);
        assertThat(bob.get("/api/v1/tokens").json().get("items")).extracting(t -> t.get("user").asString())
                .containsOnly("bob");
    }

    @Test
    void deletingAUserEndsTheirTokensAndTheLastAdminStays() {
        PlatformClient bob = api.as(userWithToken("bob", null));
        assertThat(api.delete("/api/v1/users/bob").status()).isEqualTo(204);
        assertThat(bob.get("/api/v1/me").status()).isEqualTo(401);

        Response lastAdmin = api.delete("/api/v1/users/admin");
        assertThat(lastAdmin.status()).isEqualTo(409);
        assertThat(lastAdmin.json().get("detail").asString()).contains("last Admin");
        createUser("admin2", "Admin");
        assertThat(api.delete("/api/v1/users/admin2").status()).isEqualTo(204);
    }

    @Test
    void badUsersAreRefusedWithTheField() {
        Response shortPassword = api.postJson("/api/v1/users", "{\"name\": \"bob\", \"password\": \"short\"}");
        Response badName = api.postJson("/api/v1/users", "{\"name\": \"-bob\", \"password\": \"long-enough-password\"}");
        createUser("bob", null);
        Response twice = api.postJson("/api/v1/users", "{\"name\": \"bob\", \"password\": \"long-enough-password\"}");

        assertThat(shortPassword.status()).isEqualTo(422);
        assertThat(shortPassword.json().at("/errors/0/path").asString()).isEqualTo("password");
        assertThat(badName.status()).isEqualTo(422);
        assertThat(badName.json().at("/errors/0/path").asString()).isEqualTo("name");
        assertThat(twice.status()).isEqualTo(409);
        assertThat(api.get("/api/v1/users/bob").json().get("hasPassword").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/users/bob").body()).doesNotContain("bcrypt").doesNotContain("passwordHash");
    }

    @Test
    void theBootstrapTokenIsCreatedOnceWhateverTheNumberOfStarts() {
        bootstrap.ensureAdmin();
        bootstrap.ensureAdmin();

        assertThat(jdbc.sql("SELECT count(*) FROM api_token WHERE token_hash = ?")
                .param(TokenSecrets.hash(TestIdentity.ADMIN_TOKEN)).query(Long.class).single()).isOne();
        JsonNode me = api.get("/api/v1/me").json();
        assertThat(me.get("name").asString()).isEqualTo("admin");
        assertThat(me.get("clusterRole").asString()).isEqualTo("Admin");
    }

    @Test
    void changesCancelsAndTokensAreAuditedWithTheRealCaller() {
        createUser("root2", "Admin");
        PlatformClient root2 = api.as(token("root2"));
        assertThat(root2.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        assertThat(root2.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: a}
                spec: {namespaces: [team-a], members: [{user: eng, role: Engineer}]}
                """).status()).isEqualTo(200);
        PlatformClient eng = api.as(userWithToken("eng", null));
        assertThat(eng.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("w", "lq", "1", null)).status())
                .isEqualTo(201);
        assertThat(eng.delete("/api/v1/namespaces/team-a/workloads/w").status()).isEqualTo(200);

        assertThat(jdbc.sql("SELECT DISTINCT actor FROM config_audit").query(String.class).list()).containsExactly("root2");
        assertThat(jdbc.sql("SELECT kind FROM config_audit WHERE kind = 'Team'").query(String.class).list()).hasSize(1);
        assertThat(jdbc.sql("SELECT actor || ' ' || action || ' ' || subject FROM access_audit ORDER BY id")
                .query(String.class).list()).contains("admin UserCreated root2", "admin UserCreated eng",
                "eng WorkloadCancelled team-a/w").anyMatch(line -> line.startsWith("admin TokenCreated api-token/"));
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/w/events").body()).contains("Cancelled by eng");
    }

    private String userWithToken(String user, String clusterRole) {
        createUser(user, clusterRole);
        return token(user);
    }

    private void createUser(String user, String clusterRole) {
        Response created = api.postJson("/api/v1/users", "{\"name\": \"" + user + "\", \"password\":"
                + " \"long-enough-password\", \"clusterRole\": " + (clusterRole == null ? "null" : "\"" + clusterRole + "\"")
                + "}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    private String token(String user) {
        Response issued = api.postJson("/api/v1/tokens", "{\"user\": \"" + user + "\"}");
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        return issued.json().get("token").asString();
    }
}
