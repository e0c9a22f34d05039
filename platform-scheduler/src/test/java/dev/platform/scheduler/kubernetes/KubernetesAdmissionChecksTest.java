package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission checks as Kueue's clients read them through the Kubernetes API: a ClusterQueue's
 * {@code spec.admissionChecksStrategy} (in v1beta1 and v1beta2 alike), a Workload's {@code status.admissionChecks}
 * while it waits for them, and an AdmissionCheck's Active condition, False for a provisioning check whose
 * ProvisioningRequestConfig does not exist.
 */
class KubernetesAdmissionChecksTest extends PlatformApplicationTest {

    private static final String KUEUE = "/k8s/apis/kueue.x-k8s.io/";

    @Test
    void theClusterQueueShowsItsChecksAndTheWaitingWorkloadTheirStates() {
        String queue = Manifests.queue("cq", "1", "Never").replace("  preemption: {withinClusterQueue: Never}",
                "  preemption: {withinClusterQueue: Never}\n  admissionChecksStrategy:\n    admissionChecks:\n"
                        + "    - {name: approval}\n    - {name: dws, onFlavors: [default]}");
        Response applied = api.postYaml("/api/v1/manifests", queue + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: approval}
                spec: {controllerName: example.com/approval}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: dws}
                spec:
                  controllerName: kueue.x-k8s.io/provisioning-request
                  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: dws-config}
                """);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);

        for (String version : List.of("v1beta2", "v1beta1")) {
            JsonNode cq = get(KUEUE + version + "/clusterqueues/cq");
            JsonNode rules = cq.at("/spec/admissionChecksStrategy/admissionChecks");
            assertThat(rules.size()).as(version).isEqualTo(2);
            assertThat(rules.get(0).get("name").asString()).isEqualTo("approval");
            assertThat(rules.get(0).has("onFlavors")).as("every flavor").isFalse();
            assertThat(rules.get(1).get("name").asString()).isEqualTo("dws");
            assertThat(rules.get(1).get("onFlavors").valueStream().map(JsonNode::asString)).containsExactly("default");
        }

        JsonNode dws = get(KUEUE + "v1beta2/admissionchecks/dws");
        assertThat(dws.at("/status/conditions/0/type").asString()).isEqualTo("Active");
        assertThat(dws.at("/status/conditions/0/status").asString()).isEqualTo("False");
        assertThat(dws.at("/status/conditions/0/reason").asString()).isEqualTo("BadParametersRef");
        assertThat(get(KUEUE + "v1beta2/admissionchecks/approval").at("/status/conditions/0/status").asString())
                .isEqualTo("True");

        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("first", "lq", "1", null))
                .status()).isEqualTo(201);
        JsonNode workload = await().until(() -> get(KUEUE + "v1beta2/namespaces/team-a/workloads").get("items").get(0),
                w -> w != null && w.at("/status/admissionChecks").size() == 2
                        && "the check is not active".equals(w.at("/status/admissionChecks/1/message").asString()));
        JsonNode approval = workload.at("/status/admissionChecks/0");
        assertThat(approval.get("name").asString()).isEqualTo("approval");
        assertThat(approval.get("state").asString()).isEqualTo("Pending");
        assertThat(approval.get("message").asString()).isEmpty();
        assertThat(approval.get("lastTransitionTime").asString()).isNotEmpty();
        assertThat(workload.at("/status/admissionChecks/1/name").asString()).isEqualTo("dws");
        assertThat(workload.at("/status/admissionChecks/1/state").asString()).isEqualTo("Pending");
        assertThat(workload.at("/status/pendingReason/code").asString()).isEqualTo("WaitingForAdmissionChecks");

        Response ready = api.send("PUT", "/api/v1/namespaces/team-a/workloads/first/admissionchecks/approval",
                java.util.Map.of(), "application/json", "{\"state\": \"Ready\", \"message\": \"approved\"}");
        assertThat(ready.status()).as(ready.body()).isEqualTo(200);
        JsonNode approved = get(KUEUE + "v1beta1/namespaces/team-a/workloads").get("items").get(0)
                .at("/status/admissionChecks/0");
        assertThat(approved.get("state").asString()).isEqualTo("Ready");
        assertThat(approved.get("message").asString()).isEqualTo("approved");
    }

    private JsonNode get(String path) {
        Response response = api.get(path);
        assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(200);
        return response.json();
    }
}
