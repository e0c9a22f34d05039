package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TestIdentityProvider;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bearer JWTs of an identity provider (here one in the test JVM, with its own key pair and JWK set):
 * the user named by the claim, roles from the groups claim joined with the platform's own.
 */
class IdentityProviderTokensTest extends PlatformApplicationTest {

    private final TestIdentityProvider idp = TestIdentityProvider.get();

    @Test
    void aGroupMappedToOpsReadsEverythingAndNothingMore() {
        PlatformClient carol = api.as(idp.accessToken("carol", Duration.ofMinutes(5), "sre", "unmapped-group"));

        JsonNode me = carol.get("/api/v1/me").json();
        assertThat(me.get("name").asString()).isEqualTo("carol");
        assertThat(me.get("clusterRole").asString()).isEqualTo("Ops");
        assertThat(carol.get("/api/v1/hotswaps").status()).isEqualTo(200);
        assertThat(carol.delete("/api/v1/clusterqueues/anything").status()).isEqualTo(403);
    }

    @Test
    void aGroupMappedToATeamRoleJoinsTheTeamsOwnMembersRole() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never") + """
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec: {namespaces: [team-a], members: [{user: dave, role: Engineer}]}
                """).status()).isEqualTo(200);
        PlatformClient asMember = api.as(idp.accessToken("dave", Duration.ofMinutes(5)));
        PlatformClient asLead = api.as(idp.accessToken("dave", Duration.ofMinutes(5), "vision-leads"));

        assertThat(asMember.get("/api/v1/me").json().at("/teams/0/role").asString()).isEqualTo("Engineer");
        assertThat(asMember.get("/api/v1/preemptions").status()).isEqualTo(403);
        assertThat(asLead.get("/api/v1/me").json().at("/teams/0/role").asString()).isEqualTo("TeamLead");
        assertThat(asLead.get("/api/v1/me").json().at("/teams/0/namespaces/0").asString()).isEqualTo("team-a");
        assertThat(asLead.get("/api/v1/preemptions").status()).isEqualTo(200);
        assertThat(asLead.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("w", "lq", "1", null)).status())
                .isEqualTo(201);
    }

    @Test
    void expiredAndForgedTokensAre401() {
        assertThat(api.as(idp.accessToken("carol", Duration.ofMinutes(-5), "sre")).get("/api/v1/me").status())
                .isEqualTo(401);
        assertThat(api.as(TestIdentityProvider.forgedToken("carol")).get("/api/v1/me").status()).isEqualTo(401);
        assertThat(api.as(idp.accessToken("carol", Duration.ofMinutes(5), "sre"))
                .get("/api/v1/agent/clusters/prod-1/commands?waitSeconds=0").status())
                .as("an identity provider's token is a user's, never an agent's").isEqualTo(401);
    }
}
