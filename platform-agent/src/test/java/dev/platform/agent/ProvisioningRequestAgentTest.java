package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The agent's part of the ProvisioningRequest admission check, on client-java against fabric8's mock API server:
 * the requests the scheduler lists are created with their PodTemplates as Kueue creates them, the conditions the
 * cluster autoscaler (played by the test) sets go back to the scheduler, the requests no longer listed are deleted,
 * and a workload started on provisioned capacity has its pods pinned to it.
 */
class ProvisioningRequestAgentTest {

    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final String UID = "0b7c0a7e-0000-4000-8000-000000000001";
    private static final String REQUEST = "train-dws-1";
    private static final String TEMPLATE = "ppt-train-dws-1-workers";

    private final JsonMapper json = Agent.json();
    private MockKubernetes kube;
    private FakeScheduler scheduler;
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        kube = new MockKubernetes();
        scheduler = new FakeScheduler();
        agent = new Agent(new AgentSettings(scheduler.url(), "test-cluster", FakeScheduler.TOKEN, "agent-1",
                Duration.ofMillis(50), 1, new Backoff(Duration.ofMillis(50), Duration.ofMillis(400)),
                new EvictionPolicy(new Backoff(Duration.ofMillis(20), Duration.ofMillis(100)), Duration.ofSeconds(10)),
                AgentSettings.DEFAULT_HEARTBEAT), new KubernetesCluster(kube.apiClient(), kube.apiClient(), json),
                new SoleReplica(), Clock.systemUTC());
        agent.start();
    }

    @AfterEach
    void stop() {
        agent.close();
        scheduler.close();
        kube.close();
    }

    @Test
    void createsTheRequestAndItsPodTemplatesAsKueueDoes() {
        scheduler.setProvisioningRequests(List.of(request()));

        GenericKubernetesResource created = await().atMost(PATIENCE).until(() -> provisioningRequest(REQUEST),
                r -> r != null);
        JsonNode request = json.valueToTree(created);
        assertThat(request.at("/metadata/labels/kueue.x-k8s.io~1managed").asString()).isEqualTo("true");
        assertThat(request.at("/metadata/labels/platform.dev~1workload-uid").asString()).isEqualTo(UID);
        assertThat(request.at("/spec/provisioningClassName").asString()).isEqualTo("queued-provisioning.gke.io");
        assertThat(request.at("/spec/parameters/maxRunDurationSeconds").asString()).isEqualTo("86400");
        assertThat(request.at("/spec/podSets/0/podTemplateRef/name").asString()).isEqualTo(TEMPLATE);
        assertThat(request.at("/spec/podSets/0/count").asInt()).isEqualTo(8);
        assertThat(request.at("/metadata/ownerReferences").isMissingNode())
                .as("no JobSet yet: an owner that does not exist would have it collected").isTrue();

        PodTemplate template = await().atMost(PATIENCE).until(
                () -> kube.client().resources(PodTemplate.class).inNamespace("ml").withName(TEMPLATE).get(),
                t -> t != null && !t.getMetadata().getOwnerReferences().isEmpty());
        assertThat(template.getTemplate().getSpec().getNodeSelector())
                .containsEntry("cloud.google.com/gke-tpu-topology", "4x4");
        assertThat(template.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("ProvisioningRequest");
            assertThat(owner.getName()).isEqualTo(REQUEST);
            assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
    }

    @Test
    void reportsTheAutoscalersConditionsAndPinsTheStartedPodsToTheCapacity() throws Exception {
        scheduler.setProvisioningRequests(List.of(request()));
        await().atMost(PATIENCE).until(() -> provisioningRequest(REQUEST) != null);

        setCondition("Accepted", "True", "queued");
        await().atMost(PATIENCE).until(() -> lastConditions().contains("Accepted=True"));
        setCondition("Provisioned", "True", "capacity is ready");
        await().atMost(PATIENCE).until(() -> lastConditions().contains("Provisioned=True"));
        assertThat(lastReport().workloadUid()).isEqualTo(UID);
        assertThat(lastReport().admissionCheck()).isEqualTo("dws");
        assertThat(lastReport().attempt()).isEqualTo(1);

        scheduler.enqueue(new AgentCommand(1, CommandType.START, UID, "ml", "train", null,
                new CommandPayload(jobSet(), null, List.of(), Map.of(), null)));
        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(1).stream()
                .anyMatch(r -> r.status() == CommandStatus.SUCCEEDED));
        JsonNode started = json.valueToTree(kube.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
                .inNamespace("ml").withName("train").get());
        JsonNode annotations = started.at("/spec/replicatedJobs/0/template/spec/template/metadata/annotations");
        assertThat(annotations.path("autoscaling.x-k8s.io/consume-provisioning-request").asString()).isEqualTo(REQUEST);
        assertThat(annotations.path("cluster-autoscaler.kubernetes.io/provisioning-class-name").asString())
                .isEqualTo("queued-provisioning.gke.io");
        assertThat(annotations.path("autoscaling.x-k8s.io/provisioning-class-name").asString())
                .isEqualTo("queued-provisioning.gke.io");
    }

    @Test
    void deletesTheRequestAndItsPodTemplatesOnceTheSchedulerNoLongerListsThem() {
        scheduler.setProvisioningRequests(List.of(request()));
        await().atMost(PATIENCE).until(() -> provisioningRequest(REQUEST) != null);

        scheduler.setProvisioningRequests(List.of());

        await().atMost(PATIENCE).until(() -> provisioningRequest(REQUEST) == null
                && kube.client().resources(PodTemplate.class).inNamespace("ml").withName(TEMPLATE).get() == null);
        await().atMost(PATIENCE).until(() -> last(scheduler.provisioningReports()).isEmpty());
    }

    @Test
    void aRequestMadeAfterTheWorkloadsJobSetIsOwnedByIt() throws Exception {
        ObjectNode existing = (ObjectNode) jobSet();
        existing.put("apiVersion", "jobset.x-k8s.io/v1alpha2").put("kind", "JobSet");
        ((ObjectNode) existing.path("metadata")).put("name", "train").put("namespace", "ml");
        GenericKubernetesResource jobSet = kube.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet")
                .inNamespace("ml").resource(json.treeToValue(existing, GenericKubernetesResource.class)).create();

        scheduler.setProvisioningRequests(List.of(request()));

        GenericKubernetesResource created = await().atMost(PATIENCE).until(() -> provisioningRequest(REQUEST),
                r -> r != null);
        assertThat(created.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getKind()).isEqualTo("JobSet");
            assertThat(owner.getName()).isEqualTo("train");
            assertThat(owner.getUid()).isEqualTo(jobSet.getMetadata().getUid());
        });
    }

    private ProvisioningRequestSpec request() {
        ObjectNode template = json.createObjectNode();
        ObjectNode spec = template.putObject("spec");
        spec.putObject("nodeSelector").put("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice")
                .put("cloud.google.com/gke-tpu-topology", "4x4");
        ObjectNode container = spec.putArray("containers").addObject();
        container.put("name", "jax").put("image", "python:3.12");
        container.putObject("resources").putObject("requests").put("google.com/tpu", "4");
        return new ProvisioningRequestSpec("ml", REQUEST, UID, "train", "dws", 1, "queued-provisioning.gke.io",
                Map.of("maxRunDurationSeconds", "86400"),
                List.of(new ProvisioningRequestSpec.PodSet("workers", TEMPLATE, 8, template)));
    }

    private JsonNode jobSet() {
        return json.readTree("""
                {"metadata": {"name": "train", "namespace": "ml"},
                 "spec": {"replicatedJobs": [{"name": "workers", "replicas": 2, "template": {"spec": {
                   "parallelism": 4, "completions": 4,
                   "template": {"spec": {"containers": [{"name": "jax", "image": "python:3.12"}]}}}}}]}}""");
    }

    private GenericKubernetesResource provisioningRequest(String name) {
        return kube.client().genericKubernetesResources("autoscaling.x-k8s.io/v1", "ProvisioningRequest")
                .inNamespace("ml").withName(name).get();
    }

    /** The cluster autoscaler's part: a condition set on the request's status. */
    private void setCondition(String type, String status, String message) {
        GenericKubernetesResource request = provisioningRequest(REQUEST);
        ObjectNode object = json.valueToTree(request);
        ObjectNode conditions = object.get("status") instanceof ObjectNode s ? s : object.putObject("status");
        ObjectNode condition = conditions.withArray("conditions").addObject();
        condition.put("type", type).put("status", status).put("reason", type).put("message", message)
                .put("lastTransitionTime", "2026-01-01T10:00:00Z");
        kube.client().genericKubernetesResources("autoscaling.x-k8s.io/v1", "ProvisioningRequest").inNamespace("ml")
                .resource(json.treeToValue(object, GenericKubernetesResource.class)).update();
    }

    private static <T> T last(List<T> list) {
        return list.get(list.size() - 1);
    }

    private ProvisioningRequestReport lastReport() {
        return last(scheduler.provisioningReports()).get(0);
    }

    private List<String> lastConditions() {
        List<List<ProvisioningRequestReport>> all = scheduler.provisioningReports();
        if (all.isEmpty() || last(all).isEmpty()) {
            return List.of();
        }
        return last(all).get(0).conditions().stream().map(c -> c.type() + "=" + c.status()).toList();
    }
}
