package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.MockClusterAgent;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The scheduler's commands for a workload whose manifest is a batch Job, against fabric8's mock API server: START
 * creates a Job (not a JobSet) with the platform's labels and the flavor's node selection and tolerations in its pod
 * template, its pods are reported as the workload's, STOP suspends it and evicts its pods, a START after it pins the
 * same Job to the new pools and resumes it, DELETE deletes it.
 */
class JobCommandsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(15);
    private static final String UID = "4f1c9a2e-0000-4000-8000-00000000000a";
    private static final JsonNode JOB = Agent.json().readTree("""
            {"apiVersion": "batch/v1", "kind": "Job",
             "metadata": {"name": "etl", "namespace": "default", "labels": {"kueue.x-k8s.io/queue-name": "default-queue"}},
             "spec": {"parallelism": 2, "completions": 2,
                      "template": {"spec": {"priorityClassName": "batch-low", "restartPolicy": "Never",
                                            "nodeSelector": {"cloud.google.com/gke-tpu-topology": "4x4"},
                                            "containers": [{"name": "main", "image": "etl"}]}}}}""");

    private final MockClusterAgent agent;
    private final MockKubernetes kube;
    private final FakeScheduler scheduler;

    JobCommandsTest() throws IOException {
        agent = new MockClusterAgent();
        kube = agent.kube;
        scheduler = agent.scheduler;
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    @Test
    void aJobIsStartedStoppedResumedOnOtherPoolsAndDeletedAsAJob() {
        agent.start(new SimpleMeterRegistry());

        assertThat(run(new AgentCommand(1, CommandType.START, UID, "default", "etl", null, payload("pool-a"))).message())
                .isEqualTo("Job created");
        Job started = job();
        assertThat(started.getSpec().getSuspend()).isFalse();
        assertThat(started.getMetadata().getLabels()).containsEntry(AgentProtocol.WORKLOAD_UID_LABEL, UID)
                .containsEntry(AgentProtocol.MANAGED_LABEL, "true");
        assertThat(started.getMetadata().getAnnotations()).containsEntry(AgentProtocol.LAST_COMMAND_ANNOTATION, "1");
        var template = started.getSpec().getTemplate();
        assertThat(template.getMetadata().getLabels()).containsEntry(AgentProtocol.WORKLOAD_UID_LABEL, UID);
        assertThat(template.getSpec().getNodeSelector()).isEqualTo(Map.of("cloud.google.com/gke-tpu-topology", "4x4",
                "cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"));
        assertThat(template.getSpec().getPriorityClassName()).as("the Job's own").isEqualTo("batch-low");
        assertThat(template.getSpec().getTolerations()).singleElement().satisfies(t -> {
            assertThat(t.getKey()).isEqualTo("google.com/tpu");
            assertThat(t.getOperator()).isEqualTo("Exists");
            assertThat(t.getEffect()).isEqualTo("NoSchedule");
        });
        assertThat(pools(started)).containsExactly("pool-a");
        assertThat(kube.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace("default")
                .list().getItems()).isEmpty();

        for (int i = 0; i < 2; i++) {
            kube.client().pods().inNamespace("default").resource(new PodBuilder()
                    .withNewMetadata().withName("etl-" + i).addToLabels(template.getMetadata().getLabels())
                    .addToLabels("batch.kubernetes.io/job-name", "etl").endMetadata()
                    .withNewSpec().withNodeName("node-" + i).addNewContainer().withName("main").withImage("etl")
                    .endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus().build()).create();
        }
        WorkloadStatusReport running = await().atMost(PATIENCE).until(() -> lastStatus(), s -> s != null
                && s.phase() == WorkloadPhase.RUNNING && s.podsRunning() == 2);
        assertThat(running.jobSetName()).isEqualTo("etl");

        assertThat(run(new AgentCommand(2, CommandType.STOP, UID, "default", "etl", null, null)).message())
                .isEqualTo("Job suspended, 2 pod(s) evicted");
        assertThat(job().getSpec().getSuspend()).isTrue();
        assertThat(kube.evictionAttempts()).containsExactlyInAnyOrder("etl-0", "etl-1");
        await().atMost(PATIENCE).until(() -> lastStatus().phase() == WorkloadPhase.SUSPENDED);

        assertThat(run(new AgentCommand(3, CommandType.START, UID, "default", "etl", null, payload("pool-b"))).message())
                .isEqualTo("existing Job pinned and resumed");
        Job resumed = job();
        assertThat(resumed.getMetadata().getUid()).isEqualTo(started.getMetadata().getUid());
        assertThat(resumed.getSpec().getSuspend()).isFalse();
        assertThat(pools(resumed)).containsExactly("pool-b");
        assertThat(resumed.getSpec().getTemplate().getSpec().getTolerations()).as("once, not again").hasSize(1);

        assertThat(run(new AgentCommand(4, CommandType.DELETE, UID, "default", "etl", null, null)).message())
                .isEqualTo("Job deleted");
        assertThat(job()).isNull();
    }

    private static CommandPayload payload(String pool) {
        return new CommandPayload(JOB, "low-priority-job", List.of(pool),
                Map.of("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"), "tpu-v6e-slice",
                List.of(new Toleration("google.com/tpu", "Exists", null, "NoSchedule", null)));
    }

    private CommandResult run(AgentCommand command) {
        scheduler.enqueue(command);
        return await().atMost(PATIENCE).until(() -> scheduler.resultsOf(command.id()).stream()
                .filter(r -> r.status().isFinal()).findFirst().orElse(null), r -> r != null);
    }

    private Job job() {
        return kube.client().batch().v1().jobs().inNamespace("default").withName("etl").get();
    }

    private static List<String> pools(Job job) {
        return job.getSpec().getTemplate().getSpec().getAffinity().getNodeAffinity()
                .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms().stream()
                .flatMap(t -> t.getMatchExpressions().stream())
                .filter(e -> "cloud.google.com/gke-nodepool".equals(e.getKey()))
                .map(NodeSelectorRequirement::getValues).flatMap(List::stream).toList();
    }

    private WorkloadStatusReport lastStatus() {
        return scheduler.reports().stream().flatMap(r -> r.workloads().stream())
                .filter(w -> UID.equals(w.workloadUid())).reduce((a, b) -> b).orElse(null);
    }
}
