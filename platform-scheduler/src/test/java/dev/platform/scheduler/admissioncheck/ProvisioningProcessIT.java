package dev.platform.scheduler.admissioncheck;

import dev.platform.agent.simulation.ProvisioningModel;
import dev.platform.scheduler.testsupport.ConsoleBrowser;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ProvisioningRequest admission check on the packaged jars: the scheduler and the simulated agent as processes,
 * the agent's simulated autoscaler with the demo's models (queued provisioning: 5 s, up to four slices; flex-start's
 * best-effort atomic scale-up: 2 s, up to two, failing beyond). The seed's ClusterQueue gets a flex flavor behind a
 * queued-provisioning check, and a second ClusterQueue is behind a flex-start check. With the cluster's four slices
 * busy, a JobSet on the flex flavor waits for its check, gets two slices provisioned and runs on them; the capacity
 * revoked evicts and requeues it and it asks again; a flex-start JobSet that cannot get its slices retries once and
 * is rejected. The console's workload and ClusterQueue pages are looked at in a browser in each state, with
 * screenshots under target/screenshots.
 */
class ProvisioningProcessIT {

    /** Start-up on a machine busy with other builds can take minutes. */
    private static final Duration START_PATIENCE = Duration.ofMinutes(10);
    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final String PASSWORD = "provisioning-browser-password";

    /** A second ClusterQueue on the flex flavor behind a flex-start check, retried once a second later. */
    private static final String FLEX_START = """
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: AdmissionCheck
            metadata: {name: flex-start}
            spec:
              controllerName: kueue.x-k8s.io/provisioning-request
              parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: flex-start-config}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ProvisioningRequestConfig
            metadata: {name: flex-start-config}
            spec:
              provisioningClassName: best-effort-atomic-scale-up.autoscaling.x-k8s.io
              managedResources: [google.com/tpu]
              retryStrategy: {backoffLimitCount: 1, backoffBaseSeconds: 1, backoffMaxSeconds: 1}
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ClusterQueue
            metadata: {name: flex-start-cq}
            spec:
              admissionChecksStrategy:
                admissionChecks:
                - {name: flex-start}
              resourceGroups:
              - flavors:
                - name: flex
                  resources: [{name: google.com/tpu, nominalQuota: 64}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: LocalQueue
            metadata: {name: flex-start-queue, namespace: default}
            spec: {clusterQueue: flex-start-cq}
            """;

    /** Kept when the test fails: every process's log is there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void withEverySliceBusyAJobSetGetsSlicesProvisionedIsRequeuedWhenTheyAreRevokedAndAFailedOneIsRejected()
            throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("provisioning_process");
        try (PlatformProcess scheduler = PlatformProcess.start(workDir, "scheduler", PlatformProcess.database(db))
                .awaitUp(START_PATIENCE);
             PlatformProcess agent = PlatformProcess.startSimulatedAgent(workDir, scheduler.url(), "sim")
                     .awaitUp(START_PATIENCE)) {
            PlatformClient api = scheduler.client();
            PlatformClient simulation = agent.client();
            Response applied = api.postYaml("/api/v1/manifests",
                    ProvisioningRequestTest.configuration(ProvisioningModel.QUEUED_PROVISIONING, 3) + FLEX_START);
            assertThat(applied.status()).as(applied.body()).isEqualTo(200);
            submit(api, jobSet("busy-a", "default-queue"));
            submit(api, jobSet("busy-b", "default-queue"));
            awaitWorkload(api, "busy-a", state("Running"));
            awaitWorkload(api, "busy-b", state("Running"));

            // Every slice busy: the third JobSet reserves quota on the flex flavor and waits for its check.
            submit(api, jobSet("flex-train", "default-queue"));
            JsonNode waiting = awaitWorkload(api, "flex-train",
                    w -> "WaitingForAdmissionChecks".equals(w.at("/pendingReason/code").asString()));
            assertThat(waiting.at("/admissionChecks/0/name").asString()).isEqualTo("dws");
            assertThat(waiting.at("/admissionChecks/0/state").asString()).isEqualTo("Pending");

            JsonNode running = awaitWorkload(api, "flex-train", state("Running"));
            assertThat(running.at("/admissionChecks/0/state").asString()).isEqualTo("Ready");
            assertThat(running.at("/admissionChecks/0/message").asString()).startsWith("provisioned 2 node pool(s)");
            assertThat(nodePools(running)).hasSize(2).allMatch(p -> p.startsWith("prov-flex-train-dws-1-slice-"));
            JsonNode request = request(simulation, "flex-train-dws-1").orElseThrow();
            assertThat(request.get("provisioningClassName").asString()).isEqualTo("queued-provisioning.gke.io");
            assertThat(request.get("podTemplates").valueStream().map(JsonNode::asString))
                    .containsExactly("ppt-flex-train-dws-1-slice");
            assertThat(api.get("/api/v1/clusters/sim/nodepools").body()).contains("prov-flex-train-dws-1-slice-0");
            await().atMost(PATIENCE).until(() -> runningPods(simulation, "flex-train") == 8);

            createAdmin(api);
            try (ConsoleBrowser console = ConsoleBrowser.start(scheduler.url())) {
                console.logIn("root", PASSWORD);
                console.open("/queues/tpu-training-cq");
                assertThat(text(console, "section[aria-labelledby='admission-checks'] tbody"))
                        .contains("dws", "kueue.x-k8s.io/provisioning-request", "flex", "queued-provisioning.gke.io");
                console.screenshot("admission-checks-queue");
                console.open("/namespaces/default/workloads/flex-train");
                assertThat(text(console, "section[aria-labelledby='admission-checks'] tbody"))
                        .contains("dws", "Ready", "provisioned 2 node pool(s)");
                console.screenshot("admission-checks-workload-ready");

                // The capacity taken back: the workload is evicted, requeued, and asks again with its next attempt.
                assertThat(simulation.post("/simulation/provisioningrequests/default/flex-train-dws-1/revoke", null, "")
                        .status()).isEqualTo(204);
                await().atMost(PATIENCE).until(() -> events(api, "flex-train").contains("Evicted/AdmissionCheck"));
                JsonNode again = awaitWorkload(api, "flex-train",
                        w -> "Running".equals(w.get("state").asString())
                                && nodePools(w).stream().allMatch(p -> p.startsWith("prov-flex-train-dws-2-slice-")));
                assertThat(again.at("/admissionChecks/0/state").asString()).isEqualTo("Ready");
                await().atMost(PATIENCE).until(() -> request(simulation, "flex-train-dws-1").isEmpty());
                assertThat(api.get("/api/v1/clusters/sim/nodepools").body())
                        .doesNotContain("prov-flex-train-dws-1-slice-");
                console.open("/namespaces/default/workloads/flex-train");
                assertThat(text(console, "ol.timeline")).contains("Evicted");
                console.screenshot("admission-checks-workload-requeued");

                // Flex-start cannot have two more slices at once: its request fails, retries once, and is rejected.
                submit(api, jobSet("flex-start-train", "flex-start-queue"));
                JsonNode rejected = awaitWorkload(api, "flex-start-train", w -> !w.get("active").asBoolean());
                assertThat(rejected.at("/admissionChecks/0/state").asString()).isEqualTo("Rejected");
                assertThat(rejected.at("/admissionChecks/0/message").asString())
                        .startsWith("cannot provision 2 node pool(s)");
                assertThat(events(api, "flex-start-train"))
                        .contains("Evicted/AdmissionCheck", "Evicted/DeactivatedDueToAdmissionCheck");
                await().atMost(PATIENCE).until(() -> request(simulation, "flex-start-train-flex-start-2").isEmpty()
                        && request(simulation, "flex-start-train-flex-start-1").isEmpty());
                console.open("/namespaces/default/workloads/flex-start-train");
                assertThat(text(console, "section[aria-labelledby='admission-checks'] tbody"))
                        .contains("flex-start", "Rejected", "cannot provision 2 node pool(s)");
                console.screenshot("admission-checks-workload-rejected");
                console.open("/queues/flex-start-cq");
                assertThat(text(console, "section[aria-labelledby='admission-checks'] tbody"))
                        .contains("flex-start", "every flavor", "best-effort-atomic-scale-up.autoscaling.x-k8s.io");
                console.screenshot("admission-checks-queue-flex-start");
            }
            assertThat(awaitWorkload(api, "flex-train", state("Running")).at("/admissionChecks/0/state").asString())
                    .isEqualTo("Ready");
        }
    }

    private static String jobSet(String name, String queue) {
        return ProvisioningRequestTest.jobSet(name)
                .replace("kueue.x-k8s.io/queue-name: default-queue", "kueue.x-k8s.io/queue-name: " + queue);
    }

    private static void submit(PlatformClient api, String jobSet) {
        Response response = api.postYaml("/api/v1/namespaces/default/workloads", jobSet);
        assertThat(response.status()).as(response.body()).isEqualTo(201);
    }

    private static void createAdmin(PlatformClient api) {
        Response created = api.postJson("/api/v1/users",
                "{\"name\": \"root\", \"clusterRole\": \"Admin\", \"password\": \"" + PASSWORD + "\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
    }

    private static Predicate<JsonNode> state(String state) {
        return w -> state.equals(w.get("state").asString());
    }

    private static JsonNode awaitWorkload(PlatformClient api, String name, Predicate<JsonNode> until) {
        return await().atMost(PATIENCE).pollInterval(Duration.ofMillis(200))
                .until(() -> api.get("/api/v1/namespaces/default/workloads/" + name).json(), until);
    }

    private static List<String> events(PlatformClient api, String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name + "/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()).toList();
    }

    /** The request of that name in the simulated cluster, as its fault port lists it. */
    private static Optional<JsonNode> request(PlatformClient simulation, String name) {
        return simulation.get("/simulation/provisioningrequests").json().valueStream()
                .filter(r -> name.equals(r.get("name").asString())).findFirst();
    }

    private static int runningPods(PlatformClient simulation, String jobSet) {
        return simulation.get("/simulation/jobsets").json().valueStream()
                .filter(j -> jobSet.equals(j.get("name").asString()) && !j.get("suspended").asBoolean())
                .mapToInt(j -> j.get("activePods").asInt()).sum();
    }

    private static String text(ConsoleBrowser console, String css) {
        return console.browser().findElement(By.cssSelector(css)).getText();
    }
}
