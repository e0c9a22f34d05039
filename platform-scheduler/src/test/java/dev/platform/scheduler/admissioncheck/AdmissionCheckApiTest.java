package dev.platform.scheduler.admissioncheck;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two-phase admission through the REST API, the external check controller played by the test: Kueue's AdmissionCheck
 * applied as a manifest, a ClusterQueue naming it, quota reserved first and the workload admitted once its check is
 * Ready; Retry frees the quota and requeues, Rejected deactivates.
 */
class AdmissionCheckApiTest extends PlatformApplicationTest {

    static final String PATH = "/api/v1/namespaces/team-a/workloads/";

    private static final String CHECKS = """
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
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ProvisioningRequestConfig
            metadata: {name: dws-config}
            spec: {provisioningClassName: queued-provisioning.gke.io}
            """;

    private void setUp() {
        String queue = Manifests.queue("cq", "1", "Never").replace("  preemption: {withinClusterQueue: Never}",
                "  preemption: {withinClusterQueue: Never}\n  admissionChecks: [approval]");
        Response applied = api.postYaml("/api/v1/manifests", queue + CHECKS);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(applied.body()).doesNotContain("admissionChecks: a Kueue field");
        submit("first");
        submit("second");
    }

    @Test
    void quotaIsReservedFirstAndTheWorkloadAdmittedOnceItsCheckIsReady() {
        setUp();
        await().until(() -> "WaitingForAdmissionChecks".equals(status("first").at("/pendingReason/code").asString()));
        JsonNode first = status("first");
        assertThat(first.at("/pendingReason/message").asString()).isEqualTo("waiting for admission checks");
        assertThat(first.at("/admission/clusterQueue").asString()).isEqualTo("cq");
        assertThat(first.at("/admissionChecks/0/name").asString()).isEqualTo("approval");
        assertThat(first.at("/admissionChecks/0/state").asString()).isEqualTo("Pending");
        assertThat(first.at("/admissionChecks/0/lastTransitionTime").isMissingNode()).isFalse();
        assertThat(condition(first, "QuotaReserved")).isEqualTo("True/QuotaReserved");
        assertThat(condition(first, "Admitted")).isEqualTo("False/UnsatisfiedChecks");
        await().until(() -> "WaitingForQuota".equals(status("second").at("/pendingReason/code").asString()));

        Response ready = setCheck("first", "approval", "{\"state\": \"Ready\", \"message\": \"approved by the lead\"}");
        assertThat(ready.status()).as(ready.body()).isEqualTo(200);
        await().until(() -> "True/Admitted".equals(condition(status("first"), "Admitted")));
        first = status("first");
        assertThat(first.get("pendingReason").isNull()).isTrue();
        assertThat(first.get("admittedAt").isNull()).isFalse();
        assertThat(first.at("/admissionChecks/0/state").asString()).isEqualTo("Ready");
        assertThat(first.at("/admissionChecks/0/message").asString()).isEqualTo("approved by the lead");
        assertThat(status("second").get("state").asString()).isEqualTo("Pending");
    }

    @Test
    void retryReleasesTheQuotaAndRequeuesWhileRejectedDeactivates() {
        setUp();
        await().until(() -> "WaitingForAdmissionChecks".equals(status("first").at("/pendingReason/code").asString()));

        setCheck("first", "approval", "{\"state\": \"Retry\", \"message\": \"budget busy\", \"requeueAfterSeconds\": 0}");
        await().until(() -> "WaitingForAdmissionChecks".equals(status("second").at("/pendingReason/code").asString()));
        assertThat(events("first")).contains("Evicted/AdmissionCheck");
        JsonNode first = status("first");
        assertThat(first.get("state").asString()).isEqualTo("Pending");
        assertThat(first.at("/admissionChecks/0/state").asString()).as("kept until its next reservation")
                .isEqualTo("Retry");

        setCheck("second", "approval", "{\"state\": \"Rejected\", \"message\": \"over budget\"}");
        await().until(() -> !status("second").get("active").asBoolean());
        assertThat(status("second").at("/pendingReason/code").asString()).isEqualTo("Deactivated");
        assertThat(events("second")).contains("Evicted/DeactivatedDueToAdmissionCheck");
        await().until(() -> "WaitingForAdmissionChecks".equals(status("first").at("/pendingReason/code").asString()));
        assertThat(status("first").at("/admissionChecks/0/state").asString()).as("reset on its new reservation")
                .isEqualTo("Pending");
    }

    @Test
    void theApiRefusesWhatNoControllerMaySet() {
        setUp();
        await().until(() -> "WaitingForAdmissionChecks".equals(status("first").at("/pendingReason/code").asString()));
        assertThat(setCheck("first", "approval", "{\"state\": \"Done\"}").status()).isEqualTo(400);
        assertThat(setCheck("first", "dws", "{\"state\": \"Ready\"}").status()).as("the platform's own").isEqualTo(409);
        assertThat(setCheck("first", "other", "{\"state\": \"Ready\"}").status()).isEqualTo(404);
        assertThat(setCheck("absent", "approval", "{\"state\": \"Ready\"}").status()).isEqualTo(404);
    }

    /**
     * Kueue's provisioning controller's shortcuts: without its ProvisioningRequestConfig the check is not active and
     * the workload waits, its check saying so; once the config exists and manages only TPUs, a workload asking for
     * cpu alone needs no request and its check is Ready at once, with no agent to make one.
     */
    @Test
    void aProvisioningCheckWithoutItsConfigIsNotActiveAndOneWithNothingToProvisionIsReadyWithoutARequest() {
        String queue = Manifests.queue("cq", "1", "Never").replace("  preemption: {withinClusterQueue: Never}",
                "  preemption: {withinClusterQueue: Never}\n  admissionChecks: [tpu-prov]");
        Response applied = api.postYaml("/api/v1/manifests", queue + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: tpu-prov}
                spec:
                  controllerName: kueue.x-k8s.io/provisioning-request
                  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: tpu-config}
                """);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        submit("first");

        JsonNode inactive = await().until(() -> status("first"),
                w -> "the check is not active".equals(w.at("/admissionChecks/0/message").asString()));
        assertThat(inactive.at("/admissionChecks/0/state").asString()).isEqualTo("Pending");
        assertThat(inactive.at("/pendingReason/code").asString()).isEqualTo("WaitingForAdmissionChecks");
        assertThat(condition(inactive, "Admitted")).isEqualTo("False/UnsatisfiedChecks");

        Response config = api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ProvisioningRequestConfig
                metadata: {name: tpu-config}
                spec:
                  provisioningClassName: queued-provisioning.gke.io
                  managedResources: [google.com/tpu]
                """);
        assertThat(config.status()).as(config.body()).isEqualTo(200);
        await().until(() -> "True/Admitted".equals(condition(status("first"), "Admitted")));
        JsonNode admitted = status("first");
        assertThat(admitted.at("/admissionChecks/0/state").asString()).isEqualTo("Ready");
        assertThat(admitted.at("/admissionChecks/0/message").asString())
                .isEqualTo("the provisioning request is not needed");
    }

    private Response setCheck(String workload, String check, String body) {
        return api.send("PUT", PATH + workload + "/admissionchecks/" + check, java.util.Map.of(), "application/json",
                body);
    }

    private void submit(String name) {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", "1", null)).status())
                .isEqualTo(201);
    }

    private JsonNode status(String name) {
        return api.get(PATH + name).json();
    }

    private static String condition(JsonNode status, String type) {
        for (JsonNode c : status.get("conditions")) {
            if (c.get("type").asString().equals(type)) {
                return c.get("status").asString() + "/" + c.get("reason").asString();
            }
        }
        return null;
    }

    private List<String> events(String name) {
        List<String> out = new ArrayList<>();
        api.get(PATH + name + "/events").json().get("items")
                .forEach(e -> out.add(e.get("type").asString() + "/" + e.get("reason").asString()));
        return out;
    }
}
