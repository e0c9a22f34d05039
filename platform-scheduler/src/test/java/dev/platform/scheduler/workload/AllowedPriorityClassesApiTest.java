package dev.platform.scheduler.workload;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A team whose Admin lists the priority classes it may use: a submission naming another class is refused with a
 * 422 naming the class and the allowed ones, through every path a workload or its priority class label arrives by.
 */
class AllowedPriorityClassesApiTest extends PlatformApplicationTest {

    private static final String WORKLOADS = "/api/v1/namespaces/team-a/workloads";

    @BeforeEach
    void aTeamAllowedLowAndStandard() {
        Response applied = api.postYaml("/api/v1/manifests", Manifests.queue("cq", "8", "Never") + "---\n"
                + workloadPriorityClass("low", 10) + "---\n" + workloadPriorityClass("standard", 100) + "---\n"
                + workloadPriorityClass("urgent", 1000) + "---\n" + Manifests.priorityClass("critical", 100000) + """
                ---
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec:
                  namespaces: [team-a]
                  members: []
                  allowedPriorityClasses: [standard, low]
                """);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    }

    @Test
    void aSubmissionNamingAClassTheTeamMayNotUseIsRefusedNamingTheClassAndTheAllowedOnes() {
        Response urgent = api.postYaml(WORKLOADS, jobSet("urgent-run", "urgent"));

        assertThat(urgent.status()).as(urgent.body()).isEqualTo(422);
        assertThat(urgent.json().at("/errors/0/path").asString())
                .isEqualTo("metadata.labels.kueue.x-k8s.io/priority-class");
        assertThat(urgent.json().get("detail").asString())
                .contains("WorkloadPriorityClass urgent", "team vision", "may use low, standard");
        assertThat(api.get(WORKLOADS + "/urgent-run").status()).isEqualTo(404);

        Response critical = api.postYaml(WORKLOADS, Manifests.job("critical-job", "lq", "1", "critical"));
        assertThat(critical.status()).as(critical.body()).isEqualTo(422);
        assertThat(critical.json().get("detail").asString()).contains("PriorityClass critical", "may use low, standard");

        Response allowed = api.postYaml(WORKLOADS, jobSet("standard-run", "standard"));
        assertThat(allowed.status()).as(allowed.body()).isEqualTo(201);
        assertThat(allowed.json().get("priority").asInt()).isEqualTo(100);
        assertThat(api.postYaml(WORKLOADS, Manifests.job("plain", "lq", "1", null)).status())
                .as("a workload naming no class gets the default priority").isEqualTo(201);
    }

    @Test
    void theManifestsEndpointRefusesTheWholeRequest() {
        Response applied = api.postYaml("/api/v1/manifests", inTeamA(jobSet("fine", "low")) + "---\n"
                + inTeamA(jobSet("urgent-run", "urgent")));

        assertThat(applied.status()).as(applied.body()).isEqualTo(422);
        assertThat(applied.json().at("/errors/0/document").asInt()).isEqualTo(1);
        assertThat(applied.json().get("detail").asString()).contains("urgent", "may use low, standard");
        assertThat(api.get(WORKLOADS + "/fine").status()).as("all or nothing").isEqualTo(404);
    }

    @Test
    void relabellingASubmittedWorkloadToAClassTheTeamMayNotUseIsRefused() {
        assertThat(api.postYaml("/api/v1/manifests", inTeamA(jobSet("run", "low"))).status()).isEqualTo(200);

        Response raised = patch("run", "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"urgent\"}}}");
        assertThat(raised.status()).as(raised.body()).isEqualTo(422);
        assertThat(raised.json().get("detail").asString()).contains("urgent", "team vision", "may use low, standard");
        assertThat(api.get(WORKLOADS + "/run").json().get("priority").asInt()).isEqualTo(10);

        Response reposted = api.postYaml("/api/v1/manifests", inTeamA(jobSet("run", "urgent")));
        assertThat(reposted.status()).as(reposted.body()).isEqualTo(422);
        assertThat(reposted.json().get("detail").asString()).contains("urgent", "may use low, standard");

        Response allowed = patch("run", "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"standard\"}}}");
        assertThat(allowed.status()).as(allowed.body()).isEqualTo(200);
        assertThat(allowed.json().get("priority").asInt()).isEqualTo(100);
    }

    @Test
    void aWorkloadsOwnPriorityWithoutAClassIsRefusedInARestrictedTeam() {
        Response explicit = api.postYaml(WORKLOADS, Manifests.workload("own-priority", "lq", "priority: 5000"));

        assertThat(explicit.status()).as(explicit.body()).isEqualTo(422);
        assertThat(explicit.json().at("/errors/0/path").asString()).isEqualTo("spec.priority");
        assertThat(explicit.json().get("detail").asString()).contains("without a priority class", "low, standard");
    }

    @Test
    void aTeamWithoutAListAndANamespaceOfNoTeamMayNameAnyClass() {
        Response unrestricted = api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec:
                  namespaces: [team-a]
                  members: []
                """);
        assertThat(unrestricted.json().at("/results/0/action").asString()).isEqualTo("updated");
        assertThat(api.postYaml(WORKLOADS, jobSet("urgent-run", "urgent")).status()).isEqualTo(201);

        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "8", "Never").split("---\n")[2]
                .replace("team-a", "team-b"));
        api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: vision}
                spec:
                  namespaces: [team-a]
                  members: []
                  allowedPriorityClasses: []
                """);
        Response none = api.postYaml(WORKLOADS, jobSet("low-run", "low"));
        assertThat(none.status()).as("an empty list allows no class").isEqualTo(422);
        assertThat(none.json().get("detail").asString()).contains("may use no priority class");
        assertThat(api.postYaml("/api/v1/namespaces/team-b/workloads", jobSet("urgent-run", "urgent")).status())
                .as("team-b belongs to no team").isEqualTo(201);
    }

    private Response patch(String name, String body) {
        return api.send("PATCH", WORKLOADS + "/" + name, Map.of(), "application/merge-patch+json", body);
    }

    private static String jobSet(String name, String priorityClass) {
        return Manifests.onePodJobSet(name, Map.of("kueue.x-k8s.io/queue-name", "lq",
                "kueue.x-k8s.io/priority-class", priorityClass), Map.of(), "1");
    }

    private static String inTeamA(String manifest) {
        return manifest.replaceFirst("\n  name: ", "\n  namespace: team-a\n  name: ");
    }

    private static String workloadPriorityClass(String name, int value) {
        return """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: %s}
                value: %d
                """.formatted(name, value);
    }
}
