package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ClusterQueue's namespaceSelector against the labels of Namespace objects, end to end: the scheduling loop
 * reads them with the rest of the configuration and retries the workloads they newly admit, as Kueue does when a
 * namespace's labels change.
 */
class NamespaceSelectorTest extends PlatformApplicationTest {

    private static final Duration SETTLE = Duration.ofSeconds(20);

    @BeforeEach
    void queueSelectingTeamMl() {
        String queue = Manifests.queue("ml-queue", "4", "Never")
                .replace("spec:\n  preemption:", "spec:\n  namespaceSelector: {matchLabels: {team: ml}}\n  preemption:");
        assertThat(queue).contains("namespaceSelector");
        assertThat(api.postYaml("/api/v1/manifests", queue).status()).isEqualTo(200);
    }

    @Test
    void aWorkloadOfAnUnlabelledNamespaceWaitsAndIsAdmittedOnceTheNamespaceIsLabelledWithoutResubmission() {
        String uid = submit("train");
        JsonNode pending = await().atMost(SETTLE).until(() -> workload("train"),
                w -> w.at("/pendingReason/code").asString().equals("InadmissibleNamespace"));

        assertThat(pending.get("state").asString()).isEqualTo("Pending");
        assertThat(pending.at("/pendingReason/message").asString())
                .isEqualTo("Workload namespace doesn't match ClusterQueue selector");

        assertThat(api.postYaml("/api/v1/manifests", namespace("team-a", "ml")).status()).isEqualTo(200);

        JsonNode admitted = await().atMost(SETTLE).until(() -> workload("train"),
                w -> w.get("state").asString().equals("Admitted"));
        assertThat(admitted.get("uid").asString()).isEqualTo(uid);
        assertThat(admitted.at("/admission/clusterQueue").asString()).isEqualTo("ml-queue");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads").json().get("items")).hasSize(1);
    }

    @Test
    void relabellingOrDeletingTheNamespaceKeepsAdmittedWorkloadsAndTurnsNewOnesAway() {
        api.postYaml("/api/v1/manifests", namespace("team-a", "ml"));
        submit("first");
        await().atMost(SETTLE).until(() -> workload("first").get("state").asString(), "Admitted"::equals);

        api.postYaml("/api/v1/manifests", namespace("team-a", "web"));
        submit("second");
        await().atMost(SETTLE).until(() -> workload("second").at("/pendingReason/code").asString(),
                "InadmissibleNamespace"::equals);

        api.postYaml("/api/v1/manifests", namespace("team-a", "ml"));
        await().atMost(SETTLE).until(() -> workload("second").get("state").asString(), "Admitted"::equals);

        assertThat(api.delete("/api/v1/namespaces/team-a").status()).isEqualTo(204);
        submit("third");
        await().atMost(SETTLE).until(() -> workload("third").at("/pendingReason/code").asString(),
                "InadmissibleNamespace"::equals);
        assertThat(workload("first").get("state").asString()).isEqualTo("Admitted");
        assertThat(workload("second").get("state").asString()).isEqualTo("Admitted");
    }

    private String submit(String name) {
        Response response = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", "1", null));
        assertThat(response.status()).as(response.body()).isEqualTo(201);
        return response.json().get("uid").asString();
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/team-a/workloads/" + name).json();
    }

    private static String namespace(String name, String team) {
        return """
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: %s
                  labels: {team: %s}
                """.formatted(name, team);
    }
}
