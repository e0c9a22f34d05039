package dev.platform.scheduler.security;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The Team kind: applied, read, changed and deleted like the Kueue kinds, each namespace owned once. */
class TeamApiTest extends PlatformApplicationTest {

    @Test
    void aTeamIsAppliedReadBackSortedAndUnchangedWhenAppliedAgainInAnotherOrder() {
        assertThat(apply(team("vision", "[vision-train, vision-eval]",
                "[{user: bob, role: Engineer}, {user: alice, role: TeamLead}]"))).isEqualTo("created");

        JsonNode read = api.get("/api/v1/teams/vision").json();
        assertThat(read.get("namespaces").valueStream().map(JsonNode::asString)).containsExactly("vision-eval", "vision-train");
        assertThat(read.get("members").valueStream().map(m -> m.get("user").asString() + ":" + m.get("role").asString()))
                .containsExactly("alice:TeamLead", "bob:Engineer");
        assertThat(apply(team("vision", "[vision-eval, vision-train]",
                "[{user: alice, role: TeamLead}, {user: bob, role: Engineer}]"))).isEqualTo("unchanged");
        assertThat(apply(team("vision", "[vision-train]", "[{user: alice, role: TeamLead}]"))).isEqualTo("updated");
        assertThat(api.get("/api/v1/teams/vision").json().get("members")).hasSize(1);
        assertThat(jdbc.sql("SELECT action FROM config_audit WHERE kind = 'Team' ORDER BY id").query(String.class).list())
                .containsExactly("created", "updated");
    }

    @Test
    void aNamespaceBelongsToOneTeamButMayMoveInOneRequest() {
        apply(team("vision", "[shared-ns]", "[]"));

        Response claimed = api.postYaml("/api/v1/manifests", team("nlp", "[shared-ns]", "[]"));
        assertThat(claimed.status()).isEqualTo(409);
        assertThat(claimed.json().get("detail").asString()).contains("shared-ns", "vision");
        assertThat(api.get("/api/v1/teams/nlp").status()).isEqualTo(404);

        Response both = api.postYaml("/api/v1/manifests", team("a", "[x]", "[]") + "---\n" + team("b", "[x]", "[]"));
        assertThat(both.status()).isEqualTo(409);
        assertThat(both.json().get("detail").asString()).contains("claimed by teams a and b");

        Response moved = api.postYaml("/api/v1/manifests", team("vision", "[]", "[]") + "---\n"
                + team("nlp", "[shared-ns]", "[]"));
        assertThat(moved.status()).as(moved.body()).isEqualTo(200);
        assertThat(api.get("/api/v1/teams/nlp").json().get("namespaces").get(0).asString()).isEqualTo("shared-ns");
    }

    @Test
    void aBadTeamIsRefusedAtItsPathsAndNothingIsApplied() {
        Response bad = api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec:
                  namespaces: [Vision_Train, ok, ok]
                  members: [{user: alice, role: Boss}, {user: "-x", role: Engineer}, {user: bob, role: Engineer},
                            {user: bob, role: TeamLead}, {role: Engineer}]
                """);

        assertThat(bad.status()).isEqualTo(422);
        assertThat(bad.json().get("errors").valueStream().map(e -> e.get("path").asString())).contains(
                "spec.namespaces[0]", "spec.namespaces[2]", "spec.members[0].role", "spec.members[1].user",
                "spec.members[3].user", "spec.members[4].user");
        assertThat(api.get("/api/v1/teams").json().get("items")).isEmpty();
    }

    @Test
    void theAllowedPriorityClassesReadBackSortedAndAbsentMeansAny() {
        apply(team("vision", "[vision-train]", "[]"));
        assertThat(api.get("/api/v1/teams/vision").json().get("allowedPriorityClasses").isNull())
                .as("no list: any class").isTrue();

        assertThat(apply(team("vision", "[vision-train]", "[]") + "  allowedPriorityClasses: [standard, low]\n"))
                .isEqualTo("updated");
        JsonNode read = api.get("/api/v1/teams/vision").json();
        assertThat(read.get("allowedPriorityClasses").valueStream().map(JsonNode::asString))
                .containsExactly("low", "standard");
        assertThat(apply(team("vision", "[vision-train]", "[]") + "  allowedPriorityClasses: [low, standard]\n"))
                .isEqualTo("unchanged");
        assertThat(apply(team("vision", "[vision-train]", "[]") + "  allowedPriorityClasses: []\n"))
                .as("an empty list allows none, unlike no list").isEqualTo("updated");
        assertThat(api.get("/api/v1/teams/vision").json().get("allowedPriorityClasses")).isEmpty();

        Response typo = api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: standard}
                value: 100
                ---
                """ + team("vision", "[vision-train]", "[]") + "  allowedPriorityClasses: [standard, standrad]\n");
        assertThat(typo.status()).as(typo.body()).isEqualTo(200);
        assertThat(typo.json().at("/results/1/warnings").valueStream().map(JsonNode::asString)).containsExactly(
                "spec.allowedPriorityClasses: 'standrad' is no PriorityClass or WorkloadPriorityClass (yet); the"
                        + " team's workloads may name it once one exists");

        Response bad = api.postYaml("/api/v1/manifests", team("vision", "[vision-train]", "[]")
                + "  allowedPriorityClasses: [Not_A_Name, low, low]\n");
        assertThat(bad.status()).isEqualTo(422);
        assertThat(bad.json().get("errors").valueStream().map(e -> e.get("path").asString()))
                .containsExactly("spec.allowedPriorityClasses[0]", "spec.allowedPriorityClasses[2]");
    }

    @Test
    void deletingATeamTakesItsMembersAccessAway() {
        apply(team("vision", "[vision-train]", "[{user: bob, role: Engineer}]"));
        assertThat(api.postJson("/api/v1/users", "{\"name\": \"bob\", \"password\": \"long-enough-password\"}").status())
                .isEqualTo(201);
        var bob = api.as(api.postJson("/api/v1/tokens", "{\"user\": \"bob\"}").json().get("token").asString());
        assertThat(bob.get("/api/v1/namespaces/vision-train/workloads").status()).isEqualTo(200);

        assertThat(api.delete("/api/v1/teams/vision").status()).isEqualTo(204);

        assertThat(bob.get("/api/v1/namespaces/vision-train/workloads").status()).isEqualTo(403);
        assertThat(bob.get("/api/v1/me").json().get("teams")).isEmpty();
        assertThat(api.delete("/api/v1/teams/vision").status()).isEqualTo(404);
    }

    private String apply(String yaml) {
        Response applied = api.postYaml("/api/v1/manifests", yaml);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        return applied.json().at("/results/0/action").asString();
    }

    private static String team(String name, String namespaces, String members) {
        return """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: %s}
                spec:
                  namespaces: %s
                  members: %s
                """.formatted(name, namespaces, members);
    }
}
