package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.MockClusterAgent;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.AdoptionSubmission;
import dev.platform.api.agent.AgentProtocol;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * No webhook, no bypass: JobSets created in the cluster without the webhook's review (fabric8's mock API server has
 * no admission chain, as a cluster before the chart was installed). The one that names a queue and runs is suspended
 * at once, its pods evicted through the Eviction API (a PodDisruptionBudget's 429 retried), and submitted; the
 * platform's own running JobSet and a JobSet without a queue name are left alone. The same for a batch Job, but for
 * the Jobs JobSet's controller makes, which are their JobSet's.
 */
class UnadmittedJobSetsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
    private static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";

    private final JsonMapper json = Agent.json();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MockClusterAgent cluster;
    private final MockKubernetes kube;
    private final FakeScheduler scheduler;

    UnadmittedJobSetsTest() throws IOException {
        cluster = new MockClusterAgent();
        kube = cluster.kube;
        scheduler = cluster.scheduler;
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aJobSetThatNamesAQueueAndRunsUnadmittedIsSuspendedItsPodsEvictedAndSubmitted() {
        createRunning("bypass", Map.of(), Map.of(AgentProtocol.QUEUE_NAME_LABEL, "default-queue"), 2);
        createRunning("platforms", Map.of(AgentProtocol.MANAGED_LABEL, "true",
                AgentProtocol.WORKLOAD_UID_LABEL, "9c1e0000-0000-4000-8000-000000000001",
                AgentProtocol.QUEUE_NAME_LABEL, "default-queue"), Map.of(AgentProtocol.LAST_COMMAND_ANNOTATION, "4"), 1);
        createRunning("unqueued", Map.of(), Map.of(), 1);
        kube.refuseEvictions("bypass-0", 1);

        cluster.start(registry);

        AdoptionSubmission submission = await().atMost(PATIENCE).until(() -> scheduler.reports().stream()
                .flatMap(r -> r.submissions().stream()).filter(s -> s.name().equals("bypass")).findFirst(),
                Optional::isPresent).orElseThrow();
        assertThat(submission.queueName()).isEqualTo("default-queue");
        assertThat(submission.manifest().at("/spec/suspend").asBoolean()).isTrue();
        assertThat((Boolean) jobSet("bypass").get("spec", "suspend")).isTrue();
        await().atMost(PATIENCE).until(() -> kube.client().pods().inNamespace("default")
                .withLabel(JOBSET_NAME_LABEL, "bypass").list().getItems().isEmpty());
        assertThat(kube.evictionAttempts()).containsExactlyInAnyOrder("bypass-0", "bypass-0", "bypass-1");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(registry.get("platform.agent.jobsets.unadmitted")
                .tag("outcome", "suspended").counter().count()).isEqualTo(1));

        assertThat((Boolean) jobSet("platforms").get("spec", "suspend")).isFalse();
        assertThat((Boolean) jobSet("unqueued").get("spec", "suspend")).isFalse();
        assertThat(scheduler.reports().stream().flatMap(r -> r.submissions().stream()).map(AdoptionSubmission::name))
                .containsOnly("bypass");
    }

    @Test
    void aJobThatNamesAQueueAndRunsUnadmittedIsSuspendedItsPodsEvictedAndSubmittedButAJobSetsOwnJobIsNot() {
        createRunningJob("etl", null, 2);
        createRunningJob("low-jax-trillium-slice-0", "low-jax-trillium", 1);

        cluster.start(registry);

        AdoptionSubmission submission = await().atMost(PATIENCE).until(() -> scheduler.reports().stream()
                .flatMap(r -> r.submissions().stream()).filter(s -> s.name().equals("etl")).findFirst(),
                Optional::isPresent).orElseThrow();
        assertThat(submission.queueName()).isEqualTo("default-queue");
        assertThat(submission.manifest().path("kind").asString()).isEqualTo("Job");
        assertThat(submission.manifest().at("/spec/suspend").asBoolean()).isTrue();
        assertThat(submission.jobSetUid()).isEqualTo(job("etl").getMetadata().getUid());
        assertThat(job("etl").getSpec().getSuspend()).isTrue();
        await().atMost(PATIENCE).until(() -> kube.client().pods().inNamespace("default")
                .withLabel(JOB_NAME_LABEL, "etl").list().getItems().isEmpty());
        assertThat(kube.evictionAttempts()).containsExactlyInAnyOrder("etl-0", "etl-1");
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(registry.get("platform.agent.jobsets.unadmitted")
                .tag("outcome", "suspended").counter().count()).isEqualTo(1));

        assertThat(job("low-jax-trillium-slice-0").getSpec().getSuspend()).isFalse();
        assertThat(scheduler.reports().stream().flatMap(r -> r.submissions().stream()).map(AdoptionSubmission::name))
                .containsOnly("etl");
    }

    private Job job(String name) {
        return kube.client().batch().v1().jobs().inNamespace("default").withName(name).get();
    }

    /**
     * A batch Job that names a queue, created unsuspended (by hand, or by JobSet's controller for {@code ownerJobSet}),
     * and its pods as the Job controller makes them.
     */
    private void createRunningJob(String name, String ownerJobSet, int pods) {
        JobBuilder job = new JobBuilder().withNewMetadata().withName(name).withNamespace("default")
                .addToLabels(AgentProtocol.QUEUE_NAME_LABEL, "default-queue").endMetadata()
                .withNewSpec().withSuspend(false).withParallelism(pods).withNewTemplate().withNewSpec()
                .addNewContainer().withName("main").withImage("etl").endContainer().withRestartPolicy("Never")
                .endSpec().endTemplate().endSpec();
        if (ownerJobSet != null) {
            job.editMetadata().addNewOwnerReference().withApiVersion("jobset.x-k8s.io/v1alpha2").withKind("JobSet")
                    .withName(ownerJobSet).withUid("5f2a0000-0000-4000-8000-000000000002").withController(true)
                    .endOwnerReference().endMetadata();
        }
        kube.client().batch().v1().jobs().inNamespace("default").resource(job.build()).create();
        createRunningPods(name, JOB_NAME_LABEL, pods);
    }

    private GenericKubernetesResource jobSet(String name) {
        return kube.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace("default")
                .withName(name).get();
    }

    /** A JobSet created unsuspended, and its pods as JobSet's controller makes them. */
    private void createRunning(String name, Map<String, String> labels, Map<String, String> annotations, int pods) {
        ObjectNode manifest = json.createObjectNode();
        manifest.put("apiVersion", "jobset.x-k8s.io/v1alpha2");
        manifest.put("kind", "JobSet");
        ObjectNode metadata = manifest.putObject("metadata").put("name", name).put("namespace", "default");
        metadata.set("labels", json.valueToTree(labels));
        metadata.set("annotations", json.valueToTree(annotations));
        ObjectNode job = manifest.putObject("spec").put("suspend", false).putArray("replicatedJobs").addObject();
        job.put("name", "worker");
        job.withObject("/template/spec/template/spec").putArray("containers").addObject().put("name", "main")
                .put("image", "jax");
        kube.client().resource(kube.client().getKubernetesSerialization()
                .unmarshal(json.writeValueAsString(manifest), GenericKubernetesResource.class)).inNamespace("default").create();
        createRunningPods(name, JOBSET_NAME_LABEL, pods);
    }

    /** The running pods of a JobSet or Job, labelled with its name as their controller labels them. */
    private void createRunningPods(String owner, String ownerLabel, int pods) {
        for (int i = 0; i < pods; i++) {
            kube.client().pods().inNamespace("default").resource(new PodBuilder()
                    .withNewMetadata().withName(owner + "-" + i).withNamespace("default")
                    .addToLabels(ownerLabel, owner)
                    .endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("jax").endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus()
                    .build()).create();
        }
    }
}
