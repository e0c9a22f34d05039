package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.BrowserSession;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A refusal by role says who may make the request, who the caller is to the rules, and how to become one. */
class RefusalsNameWhoMayTest extends PlatformApplicationTest {

    private static final String PASSWORD = "long-enough-password";

    @BeforeEach
    void teams() {
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec:
                  namespaces: [vision-train]
                  members: [{user: alice, role: TeamLead}, {user: bob, role: Engineer}]
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: nlp}
                spec:
                  namespaces: [nlp-train]
                  members: []
                """).status()).isEqualTo(200);
        for (String user : new String[] {"alice", "bob"}) {
            assertThat(api.postJson("/api/v1/users", "{\"name\": \"" + user + "\", \"password\": \"" + PASSWORD + "\"}")
                    .status()).isEqualTo(201);
        }
    }

    @Test
    void anEngineerAskingForAnAdminsEndpointIsToldWhoMayAndHowToBecomeOne() {
        PlatformClient.Response users = bob().get("/api/v1/users");

        assertThat(users.status()).isEqualTo(403);
        assertThat(users.json().get("detail").asString()).isEqualTo("GET /api/v1/users is for an Admin; you (bob) have"
                + " no cluster role and are Engineer of team vision (namespaces vision-train). An Admin gives a user the"
                + " Admin role (POST /api/v1/users with \"clusterRole\": \"Admin\", or an identity provider group mapped to"
                + " Admin). The demo's start-up banner lists an Admin login (user admin).");
    }

    @Test
    void submittingInAnotherTeamsNamespaceNamesTheTeamRuleNotOnlyRoles() {
        PlatformClient.Response submitted = bob().postYaml("/api/v1/namespaces/nlp-train/workloads",
                Manifests.job("other", "lq", "1", null));

        assertThat(submitted.status()).isEqualTo(403);
        assertThat(submitted.json().get("detail").asString())
                .startsWith("POST /api/v1/namespaces/nlp-train/workloads is for the members (Engineers and TeamLeads)"
                        + " of the team that owns namespace nlp-train, and Admins; you (bob)")
                .contains("Engineer of team vision", "An Admin adds a user to that Team's members");
    }

    @Test
    void theConsoles403PageSaysWhatThePageNeedsAndATeamLeadSeesHotswaps() {
        BrowserSession alice = new BrowserSession(port);
        alice.logIn("alice", PASSWORD);

        assertThat(alice.get("/hotswaps").status()).isEqualTo(200);
        PlatformClient.Response pools = alice.get("/nodepools");
        assertThat(pools.status()).isEqualTo(403);
        assertThat(pools.body()).contains("GET /nodepools is for Ops and Admins; you (alice) have no cluster role and are"
                + " TeamLead of team vision").contains("An Admin gives a user the Ops role")
                .doesNotContain("hotswaps, node pools and the configuration for Ops");
    }

    private PlatformClient bob() {
        return api.as(api.postJson("/api/v1/tokens", "{\"user\": \"bob\"}").json().get("token").asString());
    }
}
