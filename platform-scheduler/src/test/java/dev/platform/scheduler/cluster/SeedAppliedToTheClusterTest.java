package dev.platform.scheduler.cluster;

import dev.platform.agent.testing.AdmittingApiServer;
import dev.platform.scheduler.testsupport.JobSetController;
import dev.platform.scheduler.testsupport.KubernetesAgent;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seed's workflow as its users have it: the admin applies the queues to the platform, the engineers
 * {@code kubectl apply} the seed's JobSets, verbatim, to the cluster. The API server passes each create through the
 * agent's webhook over HTTPS (mutate, patch, validate, store), so both JobSets are stored suspended; the agent
 * submits them, the platform admits within the ClusterQueue's 32 chips, and only then starts one: high-jax-trillium
 * is resumed in place and runs, low-jax-trillium stays suspended and queued, exactly as when the seed is posted
 * through REST; the cluster's Events on the JobSets say why low waits and where high was admitted. And a JobSet created while the webhook was absent, running already: the agent suspends it, evicts
 * its pod and submits it, and the platform starts it when it admits it. batch/v1 Jobs as Kueue queues them, in the
 * seed's queues: a Job applied to the cluster is stored suspended, submitted, admitted and resumed in place with the
 * flavor's node labels in its pod template, and its Events say where it was admitted; a Job submitted through the
 * REST API is started as a batch Job, not a JobSet, its flavor's tolerations in its pod template, and stopping,
 * resuming and cancelling it suspends (its pods evicted), resumes and deletes that Job. The real agent in kubernetes mode against fabric8's mock API
 * server.
 */
class SeedAppliedToTheClusterTest extends PlatformApplicationTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String FILE = "seed-kueue-and-hotswap.yaml";
    private static final JsonMapper json = JsonMapper.builder().build();
    private static final String ACCELERATOR = "cloud.google.com/gke-tpu-accelerator";

    private KubernetesAgent cluster;
    private AdmittingApiServer apiServer;

    @BeforeEach
    void startClusterWithTheAgentsWebhook() {
        cluster = KubernetesAgent.start(port, api);
        apiServer = new AdmittingApiServer(cluster.client());
    }

    @AfterEach
    void stop() {
        if (apiServer != null) {
            apiServer.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void theSeedsJobSetsAppliedToTheClusterAreSuspendedSubmittedAndStartedOnlyWhenAdmitted() {
        postTheSeedsQueues();
        List<JsonNode> jobSets = SeedManifests.documents(FILE).stream().filter(d -> d.contains("kind: JobSet"))
                .map(d -> json.valueToTree(new Yaml().<Map<String, Object>>load(d))).map(JsonNode.class::cast).toList();

        // kubectl creates the two a few milliseconds apart; through REST they arrive in one transaction. The loop
        // is held until both are submitted, so they meet in one admission cycle in both cases.
        loop.quiesced(() -> {
            for (JsonNode jobSet : jobSets) {
                GenericKubernetesResource stored = apiServer.createJobSet(KubernetesAgent.NAMESPACE, jobSet);
                assertThat((Boolean) stored.get("spec", "suspend")).as("stored suspended").isTrue();
            }
            await().atMost(PATIENCE).until(() -> workload("low-jax-trillium").has("uid")
                    && workload("high-jax-trillium").has("uid"));
            assertThat(cluster.podsOf("low-jax-trillium")).isEmpty();
            assertThat(cluster.podsOf("high-jax-trillium")).isEmpty();
        }).join();

        JsonNode high = await().atMost(PATIENCE).until(() -> workload("high-jax-trillium"),
                w -> "Running".equals(w.get("state").asString()));
        JsonNode low = await().atMost(PATIENCE).until(() -> workload("low-jax-trillium"),
                w -> "WaitingForQuota".equals(w.at("/pendingReason/code").asString()));

        assertThat(high.get("clusterQueue").asString()).isEqualTo("tpu-training-cq");
        assertThat(high.at("/admission/podSetAssignments/0/resourceUsage/google.com~1tpu").asString()).isEqualTo("32");
        assertThat(low.get("state").asString()).isEqualTo("Pending");
        assertThat(low.get("positionInClusterQueue").asInt()).isZero();
        assertThat(low.at("/pendingReason/message").asString())
                .contains("insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice, 32 more needed");

        GenericKubernetesResource highJobSet = cluster.jobSet("high-jax-trillium").orElseThrow();
        assertThat((Boolean) highJobSet.get("spec", "suspend")).isFalse();
        assertThat(highJobSet.getMetadata().getLabels()).containsEntry("platform.dev/workload-uid", high.get("uid").asString());
        List<Pod> pods = await().atMost(PATIENCE).until(() -> cluster.podsOf("high-jax-trillium"),
                p -> p.size() == 8 && p.stream().allMatch(pod -> "Running".equals(pod.getStatus().getPhase())));
        assertThat(pods).allSatisfy(pod -> assertThat(pod.getSpec().getPriorityClassName()).isEqualTo("high-priority-job"));
        assertThat((Boolean) cluster.jobSet("low-jax-trillium").orElseThrow().get("spec", "suspend")).isTrue();
        assertThat(cluster.podsOf("low-jax-trillium")).isEmpty();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(commands())
                .containsExactly("START high-jax-trillium Succeeded: existing JobSet pinned and resumed"));

        // kubectl describe jobset, in the cluster: why low waits, where high was admitted
        Event waits = await().atMost(PATIENCE).until(() -> eventsOn("low-jax-trillium", "Pending").stream()
                .filter(e -> e.getMessage().contains("WaitingForQuota")).findFirst(), Optional::isPresent).orElseThrow();
        assertThat(waits.getType()).isEqualTo("Normal");
        assertThat(waits.getMessage()).contains("insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice,"
                + " 32 more needed (WaitingForQuota); ClusterQueue tpu-training-cq, position 0 in it");
        assertThat(waits.getInvolvedObject().getUid()).isEqualTo(cluster.jobSet("low-jax-trillium").orElseThrow()
                .getMetadata().getUid());
        Event admitted = await().atMost(PATIENCE).until(() -> eventsOn("high-jax-trillium", "Admitted"),
                e -> !e.isEmpty()).get(0);
        assertThat(admitted.getMessage()).startsWith("Admitted by ClusterQueue tpu-training-cq: slice (8 pod(s)) on"
                + " flavor google.com/tpu=tpu-v6e-slice, node pools ");
        assertThat(eventsOn("high-jax-trillium", "QuotaReserved")).isNotEmpty();
        assertThat(eventsOn("low-jax-trillium", "Admitted")).isEmpty();
    }

    private List<Event> eventsOn(String jobSet, String reason) {
        return cluster.client().v1().events().inNamespace(KubernetesAgent.NAMESPACE).list().getItems().stream()
                .filter(e -> jobSet.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason())).toList();
    }

    @Test
    void aJobSetCreatedWhileTheWebhookWasAbsentIsSuspendedItsPodEvictedSubmittedAndStartedWhenAdmitted() {
        postTheSeedsQueues();
        Map<String, Object> high = new Yaml().load(SeedManifests.document(FILE, "high-jax-trillium"));
        GenericKubernetesResource unreviewed = cluster.client().getKubernetesSerialization()
                .convertValue(high, GenericKubernetesResource.class);
        // a pod of it runs already; the test's JobSet controller makes pods only for a JobSet that has none
        cluster.client().pods().inNamespace(KubernetesAgent.NAMESPACE).resource(new PodBuilder()
                .withNewMetadata().withName("high-jax-trillium-slice-0-0-early")
                .addToLabels(JobSetController.JOBSET_NAME_LABEL, "high-jax-trillium").endMetadata()
                .withNewSpec().withNodeName("kube-v6e-4x4-0-node-0").addNewContainer().withName("jax-program")
                .withImage("jax").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();

        cluster.client().resource(unreviewed).inNamespace(KubernetesAgent.NAMESPACE).create();

        JsonNode running = await().atMost(PATIENCE).until(() -> workload("high-jax-trillium"),
                w -> "Running".equals(w.path("state").asString()));
        assertThat(cluster.evictionAttempts()).containsExactly("high-jax-trillium-slice-0-0-early");
        List<Pod> pods = await().atMost(PATIENCE).until(() -> cluster.podsOf("high-jax-trillium"),
                p -> p.size() == 8 && p.stream().allMatch(pod -> "Running".equals(pod.getStatus().getPhase())));
        assertThat(pods).allSatisfy(pod -> assertThat(pod.getMetadata().getLabels())
                .containsEntry("platform.dev/workload-uid", running.get("uid").asString()));
        assertThat(cluster.jobSet("high-jax-trillium").orElseThrow().getMetadata().getUid())
                .as("the very JobSet created in the cluster, adopted").isEqualTo(unreviewedUid(running));
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(commands())
                .containsExactly("START high-jax-trillium Succeeded: existing JobSet pinned and resumed"));
    }

    @Test
    void aJobAppliedToTheClusterIsSuspendedSubmittedAdmittedAndResumedWithTheFlavorsNodeSelector() {
        postTheSeedsQueues();
        JsonNode applied = json.valueToTree(new Yaml().<Map<String, Object>>load(tpuJob("train")));

        String uid = apiServer.create(KubernetesAgent.NAMESPACE, applied).getMetadata().getUid();

        assertThat(job("train").getSpec().getSuspend()).as("stored suspended").isTrue();
        Job resumed = await().atMost(PATIENCE).until(() -> job("train"), j -> !j.getSpec().getSuspend());
        JsonNode workload = workload("train");
        assertThat(workload.get("clusterQueue").asString()).isEqualTo("tpu-training-cq");
        assertThat(resumed.getMetadata().getUid()).as("the very Job applied, adopted").isEqualTo(uid);
        assertThat(resumed.getMetadata().getLabels()).containsEntry("platform.dev/workload-uid", workload.get("uid").asString());
        var template = resumed.getSpec().getTemplate();
        assertThat(template.getMetadata().getLabels()).containsEntry("platform.dev/workload-uid", workload.get("uid").asString());
        assertThat(template.getSpec().getNodeSelector()).containsEntry(ACCELERATOR, "tpu-v6e-slice")
                .containsEntry("cloud.google.com/gke-tpu-topology", "4x4");
        assertThat(cluster.jobSet("train")).as("no JobSet made of the Job").isEmpty();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(commands())
                .containsExactly("START train Succeeded: existing Job pinned and resumed"));

        runPodsOf(resumed);
        await().atMost(PATIENCE).until(() -> "Running".equals(workload("train").get("state").asString()));

        // kubectl describe job, in the cluster
        Event admitted = await().atMost(PATIENCE).until(() -> eventsOn("train", "Admitted"), e -> !e.isEmpty()).get(0);
        assertThat(admitted.getInvolvedObject().getKind()).isEqualTo("Job");
        assertThat(admitted.getInvolvedObject().getApiVersion()).isEqualTo("batch/v1");
        assertThat(admitted.getInvolvedObject().getUid()).isEqualTo(uid);
        assertThat(admitted.getMessage()).startsWith("Admitted by ClusterQueue tpu-training-cq: ")
                .contains("flavor google.com/tpu=tpu-v6e-slice");
    }

    @Test
    void aJobSubmittedThroughTheRestApiIsStartedAsABatchJobWithItsFlavorsNodeLabelsAndTolerations() {
        postTheSeedsQueues();
        // the seed's flavor, tolerating the taint GKE puts on TPU nodes
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata:
                  name: tpu-v6e-slice
                spec:
                  nodeLabels:
                    cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice
                  tolerations:
                  - key: google.com/tpu
                    operator: Exists
                    effect: NoSchedule
                """).status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/namespaces/" + KubernetesAgent.NAMESPACE + "/workloads", tpuJob("etl"))
                .status()).isEqualTo(201);

        Job started = await().atMost(PATIENCE).until(() -> job("etl"), j -> j != null && !j.getSpec().getSuspend());

        assertThat(started.getSpec().getTemplate().getSpec().getNodeSelector()).containsEntry(ACCELERATOR, "tpu-v6e-slice");
        assertThat(started.getSpec().getTemplate().getSpec().getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("google.com/tpu");
            assertThat(t.getOperator()).isEqualTo("Exists");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(started.getSpec().getParallelism()).isEqualTo(4);
        assertThat(started.getMetadata().getLabels()).containsEntry("platform.dev/workload-uid",
                workload("etl").get("uid").asString());
        assertThat(cluster.jobSet("etl")).as("no JobSet made of the Job").isEmpty();
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(commands())
                .containsExactly("START etl Succeeded: Job created"));
    }

    @Test
    void aJobStoppedResumedAndCancelledThroughTheRestApiIsSuspendedResumedAndDeletedInTheCluster() {
        postTheSeedsQueues();
        String path = "/api/v1/namespaces/" + KubernetesAgent.NAMESPACE + "/workloads/etl";
        assertThat(api.postYaml("/api/v1/namespaces/" + KubernetesAgent.NAMESPACE + "/workloads", tpuJob("etl"))
                .status()).isEqualTo(201);
        Job started = await().atMost(PATIENCE).until(() -> job("etl"), j -> j != null && !j.getSpec().getSuspend());
        runPodsOf(started);
        await().atMost(PATIENCE).until(() -> "Running".equals(workload("etl").get("state").asString()));

        assertThat(api.postJson(path + "/stop", "").status()).isEqualTo(200);

        await().atMost(PATIENCE).until(() -> job("etl").getSpec().getSuspend());
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(cluster.evictionAttempts())
                .containsExactlyInAnyOrder("etl-0", "etl-1", "etl-2", "etl-3"));
        assertThat(job("etl").getMetadata().getUid()).isEqualTo(started.getMetadata().getUid());

        assertThat(api.postJson(path + "/resume", "").status()).isEqualTo(200);

        await().atMost(PATIENCE).until(() -> !job("etl").getSpec().getSuspend());

        assertThat(api.delete(path).status()).isEqualTo(200);

        await().atMost(PATIENCE).until(() -> job("etl") == null);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(commands()).containsExactly(
                "START etl Succeeded: Job created",
                "STOP etl Succeeded: Job suspended, 4 pod(s) evicted [evicted 4 pod(s), 0 PodDisruptionBudget rejection(s)]",
                "START etl Succeeded: existing Job pinned and resumed", "DELETE etl Succeeded: Job deleted"));
    }

    /** The Job controller's four pods of {@code job}, running on nodes its selector allows. */
    private void runPodsOf(Job job) {
        String name = job.getMetadata().getName();
        List<String> nodes = cluster.nodesOf(KubernetesAgent.CLUSTER + "-v6e-4x4-0");
        for (int i = 0; i < 4; i++) {
            cluster.client().pods().inNamespace(KubernetesAgent.NAMESPACE).resource(new PodBuilder()
                    .withNewMetadata().withName(name + "-" + i).addToLabels(job.getSpec().getTemplate().getMetadata()
                            .getLabels()).addToLabels("batch.kubernetes.io/job-name", name).endMetadata()
                    .withNewSpec().withNodeName(nodes.get(i)).addNewContainer().withName("main").withImage("jax")
                    .endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus().build()).create();
        }
    }

    /** A Job of four TPU pods (16 chips of the ClusterQueue's 32), in the seed's LocalQueue. */
    private static String tpuJob(String name) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  labels: {kueue.x-k8s.io/queue-name: default-queue}
                spec:
                  parallelism: 4
                  completions: 4
                  template:
                    spec:
                      restartPolicy: Never
                      nodeSelector:
                        cloud.google.com/gke-tpu-topology: 4x4
                      containers:
                      - name: main
                        image: jax
                        resources:
                          limits:
                            google.com/tpu: 4
                """.formatted(name);
    }

    private Job job(String name) {
        return cluster.client().batch().v1().jobs().inNamespace(KubernetesAgent.NAMESPACE).withName(name).get();
    }

    private List<String> commands() {
        return jdbc.sql("SELECT type || ' ' || name || ' ' || state || ': ' || result_message FROM agent_command ORDER BY seq")
                .query(String.class).list();
    }

    /** The admin applies the seed's priority classes, flavor and queues to the platform. */
    private void postTheSeedsQueues() {
        String queues = String.join("---", SeedManifests.documents(FILE).stream()
                .filter(d -> !d.contains("kind: JobSet")).toList());
        assertThat(api.postYaml("/api/v1/manifests", queues).status()).isEqualTo(200);
    }

    /** The uid of the JobSet a workload was adopted from, as the platform keyed its submission. */
    private String unreviewedUid(JsonNode workload) {
        return jdbc.sql("SELECT substring(idempotency_key FROM 9) FROM workload WHERE uid = :uid::uuid")
                .param("uid", workload.get("uid").asString()).query(String.class).single();
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/" + KubernetesAgent.NAMESPACE + "/workloads/" + name).json();
    }
}
