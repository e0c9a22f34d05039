package dev.platform.scheduler.admissioncheck;

import dev.platform.agent.cluster.ClusterProvisioningRequest;
import dev.platform.agent.simulation.ProvisioningModel;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ProvisioningRequest admission check end to end, with the real agent on the simulated cluster: the seed's
 * ClusterQueue with a reserved flavor (the cluster's four slices) and a flex flavor behind a
 * {@code kueue.x-k8s.io/provisioning-request} check. With every slice busy, a JobSet on the flex flavor reserves
 * quota, its ProvisioningRequest is created in the cluster, the simulated autoscaler provisions two new slices, the
 * check turns Ready and the JobSet runs on them; a failed request retries and then is rejected; a revoked capacity
 * evicts and requeues the workload, which asks again.
 */
class ProvisioningRequestTest extends SimulatedClusterTest {

    private static final String SEED = "seed-kueue-and-hotswap.yaml";
    private static final Duration PATIENCE = Duration.ofSeconds(40);

    /**
     * The seed's ClusterQueue with a reserved flavor and a flex flavor behind check {@code dws} of
     * {@code provisioningClass}, retried {@code backoffLimitCount} times a second apart.
     */
    static String configuration(String provisioningClass, int backoffLimitCount) {
        return """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: low-priority-job}
                value: 1000000
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: tpu-v6e-slice}
                spec:
                  nodeLabels: {cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: default-queue, namespace: default}
                spec: {clusterQueue: tpu-training-cq}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: tpu-training-cq}
                spec:
                  admissionChecksStrategy:
                    admissionChecks:
                    - {name: dws, onFlavors: [flex]}
                  resourceGroups:
                  - flavors:
                    - name: tpu-v6e-slice
                      resources: [{name: google.com/tpu, nominalQuota: 64}]
                    - name: flex
                      resources: [{name: google.com/tpu, nominalQuota: 64}]
                """
                + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: flex}
                spec:
                  nodeLabels: {cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice}
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
                spec:
                  provisioningClassName: %s
                  managedResources: [google.com/tpu]
                  parameters: {maxRunDurationSeconds: "86400"}
                  retryStrategy: {backoffLimitCount: %d, backoffBaseSeconds: 1, backoffMaxSeconds: 1}
                """.formatted(provisioningClass, backoffLimitCount);
    }

    /** The seed's two-slice JobSet {@code low-jax-trillium}, renamed. */
    static String jobSet(String name) {
        return SeedManifests.document(SEED, "low-jax-trillium").replace("name: low-jax-trillium", "name: " + name);
    }

    @Test
    void withEverySliceBusyAJobSetWaitsForItsProvisionedSlicesAndRunsOnThem() {
        cluster.provisioningModel(ProvisioningModel.QUEUED_PROVISIONING,
                new ProvisioningModel(Duration.ofMillis(500), 4, true));
        apply(configuration(ProvisioningModel.QUEUED_PROVISIONING, 3));
        occupyTheFourSlices();

        apply(jobSet("flex-train"));

        JsonNode waiting = await().atMost(PATIENCE).until(() -> workload("flex-train"),
                w -> "WaitingForAdmissionChecks".equals(w.at("/pendingReason/code").asString()));
        assertThat(waiting.at("/admissionChecks/0/name").asString()).isEqualTo("dws");
        JsonNode running = awaitState("flex-train", "Running");
        assertThat(running.at("/admissionChecks/0/state").asString()).isEqualTo("Ready");
        assertThat(running.at("/admissionChecks/0/message").asString()).startsWith("provisioned 2 node pool(s)");
        ClusterProvisioningRequest request = requestOf("flex-train");
        assertThat(request.name()).isEqualTo("flex-train-dws-1");
        assertThat(request.podTemplates()).containsExactly("ppt-flex-train-dws-1-slice");
        assertThat(nodePools(running)).containsExactlyInAnyOrderElementsOf(
                cluster.provisionedPools().get("default/flex-train-dws-1"));
        assertThat(api.get("/api/v1/clusters/sim/nodepools").body()).contains("prov-flex-train-dws-1-slice-0");

        Response cancelled = api.send("DELETE", "/api/v1/namespaces/default/workloads/flex-train", java.util.Map.of(),
                null, null);
        assertThat(cancelled.status()).as(cancelled.body()).isLessThan(300);
        await().atMost(PATIENCE).until(() -> cluster.provisioningRequests().isEmpty()
                && cluster.provisionedPools().isEmpty());
    }

    @Test
    void aFailedRequestRetriesWithItsBackoffAndIsRejectedAfterItsLimit() {
        cluster.provisioningModel(ProvisioningModel.BEST_EFFORT_ATOMIC, new ProvisioningModel(Duration.ZERO, 0, false));
        apply(configuration(ProvisioningModel.BEST_EFFORT_ATOMIC, 1));
        occupyTheFourSlices();

        apply(jobSet("flex-train"));

        JsonNode deactivated = await().atMost(PATIENCE).until(() -> workload("flex-train"),
                w -> !w.get("active").asBoolean());
        assertThat(deactivated.at("/admissionChecks/0/state").asString()).isEqualTo("Rejected");
        assertThat(deactivated.at("/admissionChecks/0/message").asString()).startsWith("cannot provision 2 node pool(s)");
        assertThat(events("flex-train")).contains("Evicted/AdmissionCheck", "Evicted/DeactivatedDueToAdmissionCheck")
                .as("never started, it lost no work").noneMatch(e -> e.startsWith("LostWork/"));
        await().atMost(PATIENCE).until(() -> cluster.provisioningRequests().isEmpty());
    }

    @Test
    void aRevokedCapacityEvictsAndRequeuesTheWorkloadWhichAsksAgain() {
        cluster.provisioningModel(ProvisioningModel.QUEUED_PROVISIONING,
                new ProvisioningModel(Duration.ofMillis(200), 4, true));
        apply(configuration(ProvisioningModel.QUEUED_PROVISIONING, 3));
        occupyTheFourSlices();
        apply(jobSet("flex-train"));
        awaitState("flex-train", "Running");

        assertThat(cluster.revokeCapacity("default", "flex-train-dws-1")).isTrue();

        await().atMost(PATIENCE).until(() -> events("flex-train").contains("Evicted/AdmissionCheck"));
        await().atMost(PATIENCE).until(() -> cluster.provisionedPools().containsKey("default/flex-train-dws-2"));
        JsonNode again = awaitState("flex-train", "Running");
        assertThat(again.at("/admissionChecks/0/state").asString()).isEqualTo("Ready");
        assertThat(again.get("conditions").valueStream().filter(c -> "Evicted".equals(c.get("type").asString()))
                .map(c -> c.get("status").asString() + "/" + c.get("reason").asString()))
                .as("Kueue's reset when quota is reserved again").containsExactly("False/QuotaReserved");
        assertThat(again.get("conditions").valueStream().filter(c -> "Requeued".equals(c.get("type").asString()))
                .map(c -> c.get("status").asString() + "/" + c.get("reason").asString()))
                .as("its backoff over").containsExactly("True/BackoffFinished");
        assertThat(nodePools(again)).containsExactlyInAnyOrderElementsOf(
                cluster.provisionedPools().get("default/flex-train-dws-2"));
        assertThat(cluster.provisioningRequests()).extracting(ClusterProvisioningRequest::name)
                .containsExactly("flex-train-dws-2");
    }

    /**
     * The slices provisioned for a workload are its own: flex-train's request is provisioned but a second check (an
     * approval) holds it back, and another ClusterQueue's JobSet asking for slices of the same kind arrives meanwhile.
     * It never gets the new slices, and flex-train runs on them once approved.
     */
    @Test
    void theSlicesProvisionedForAWorkloadAreNotTakenByAnotherWorkload() {
        cluster.provisioningModel(ProvisioningModel.QUEUED_PROVISIONING,
                new ProvisioningModel(Duration.ofMillis(200), 4, true));
        apply(configuration(ProvisioningModel.QUEUED_PROVISIONING, 3)
                .replace("    - {name: dws, onFlavors: [flex]}\n",
                        "    - {name: dws, onFlavors: [flex]}\n    - {name: approval, onFlavors: [flex]}\n")
                + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: approval}
                spec: {controllerName: example.com/approval}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: other-cq}
                spec:
                  resourceGroups:
                  - flavors:
                    - name: tpu-v6e-slice
                      resources: [{name: google.com/tpu, nominalQuota: 64}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: other-queue, namespace: default}
                spec: {clusterQueue: other-cq}
                """);
        occupyTheFourSlices();
        apply(jobSet("flex-train"));
        await().atMost(PATIENCE).until(() -> "Ready".equals(workload("flex-train").at("/admissionChecks/1/state")
                .asString()) && api.get("/api/v1/clusters/sim/nodepools").body().contains("prov-flex-train-dws-1-slice-1"));

        apply(jobSet("intruder").replace("kueue.x-k8s.io/queue-name: default-queue",
                "kueue.x-k8s.io/queue-name: other-queue"));
        await().during(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> nodePools(workload("intruder")).isEmpty()
                && !"Running".equals(workload("intruder").get("state").asString()));
        assertThat(workload("flex-train").at("/admissionChecks/0/state").asString()).as("approval").isEqualTo("Pending");
        assertThat(workload("flex-train").at("/admissionChecks/1/state").asString()).as("dws").isEqualTo("Ready");

        Response approved = api.send("PUT", "/api/v1/namespaces/default/workloads/flex-train/admissionchecks/approval",
                java.util.Map.of(), "application/json", "{\"state\": \"Ready\"}");
        assertThat(approved.status()).as(approved.body()).isEqualTo(200);
        JsonNode running = awaitState("flex-train", "Running");
        assertThat(nodePools(running)).containsExactlyInAnyOrderElementsOf(
                cluster.provisionedPools().get("default/flex-train-dws-1"));
        assertThat(nodePools(workload("intruder"))).isEmpty();
    }

    /** Two two-slice JobSets on the reserved flavor take the cluster's four slices. */
    private void occupyTheFourSlices() {
        apply(jobSet("busy-a"));
        apply(jobSet("busy-b"));
        awaitState("busy-a", "Running");
        awaitState("busy-b", "Running");
    }

    private ClusterProvisioningRequest requestOf(String workload) {
        List<ClusterProvisioningRequest> requests = cluster.provisioningRequests().stream()
                .filter(r -> r.name().startsWith(workload + "-")).toList();
        assertThat(requests).hasSize(1);
        return requests.get(0);
    }

    private void apply(String yaml) {
        Response response = api.postYaml("/api/v1/manifests", yaml);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(PATIENCE).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }

    private List<String> events(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name + "/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()).toList();
    }
}
