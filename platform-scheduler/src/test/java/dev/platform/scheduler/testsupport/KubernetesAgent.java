package dev.platform.scheduler.testsupport;

import dev.platform.agent.Agent;
import dev.platform.agent.AgentSettings;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.GkeLabels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.kubernetes.client.openapi.ApiClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static org.awaitility.Awaitility.await;

/**
 * The real agent (platform-agent) in kubernetes mode, on client-java, against fabric8's mock API
 * server holding a GKE-like cluster {@code kube}: four v6e 4x4 TPU slices (node pools of four
 * hosts with four chips each, as the seed's JobSets ask for per replica) and a CPU pool. A
 * {@link JobSetController} turns the agent's JobSets into running pods.
 */
public final class KubernetesAgent implements AutoCloseable {

    public static final String CLUSTER = "kube";
    public static final String NAMESPACE = "default";
    private static final int TPU_POOLS = 4;
    private static final int HOSTS_PER_SLICE = 4;
    private static final int CHIPS_PER_HOST = 4;
    private static final Duration COMMAND_READ_TIMEOUT = Duration.ofSeconds(30);

    private final MockKubernetes kubernetes;
    private final JobSetController jobSets;
    private final Agent agent;

    private KubernetesAgent(MockKubernetes kubernetes, JobSetController jobSets, Agent agent) {
        this.kubernetes = kubernetes;
        this.jobSets = jobSets;
        this.agent = agent;
    }

    /** Starts the cluster and the agent and waits until the scheduler shows the cluster's five pools. */
    public static KubernetesAgent start(int port, PlatformClient api) {
        return start(port, api, Clock.systemUTC());
    }

    /** The same with the agent on its own clock (a skewed one, say). */
    public static KubernetesAgent start(int port, PlatformClient api, Clock agentClock) {
        return start(port, api, agentClock, AgentSettings.DEFAULT_FULL_REPORT_INTERVAL, false);
    }

    /** The same with FULL reports every {@code fullReportInterval}: the scheduler sees what left the cluster that soon. */
    public static KubernetesAgent start(int port, PlatformClient api, Duration fullReportInterval) {
        return start(port, api, Clock.systemUTC(), fullReportInterval, false);
    }

    /**
     * The same where a TPU pod waits Pending for a host another JobSet's pod holds, until that pod is gone
     * ({@link JobSetController} with exclusive hosts): a JobSet moved onto pools whose pods cannot be evicted
     * does not run.
     */
    public static KubernetesAgent startWithExclusiveHosts(int port, PlatformClient api) {
        return start(port, api, Clock.systemUTC(), AgentSettings.DEFAULT_FULL_REPORT_INTERVAL, true);
    }

    private static KubernetesAgent start(int port, PlatformClient api, Clock agentClock, Duration fullReportInterval,
                                         boolean exclusiveHosts) {
        MockKubernetes kubernetes;
        try {
            kubernetes = new MockKubernetes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int pool = 0; pool < TPU_POOLS; pool++) {
            for (int host = 0; host < HOSTS_PER_SLICE; host++) {
                kubernetes.client().nodes().resource(node(CLUSTER + "-v6e-4x4-" + pool, host, true)).create();
            }
        }
        for (int host = 0; host < 2; host++) {
            kubernetes.client().nodes().resource(node(CLUSTER + "-cpu", host, false)).create();
        }
        JobSetController jobSets = new JobSetController(kubernetes.client(), exclusiveHosts);
        ApiClient commands = kubernetes.apiClient();
        commands.setReadTimeout((int) COMMAND_READ_TIMEOUT.toMillis());
        Agent agent = new Agent(AgentSettings.of(URI.create("http://127.0.0.1:" + port), CLUSTER,
                TestIdentity.agentToken(CLUSTER), CLUSTER + "-agent").withFullReportInterval(fullReportInterval),
                new KubernetesCluster(commands, kubernetes.apiClient(), Agent.json()), new SoleReplica(), agentClock);
        KubernetesAgent started = new KubernetesAgent(kubernetes, jobSets, agent);
        agent.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                PlatformClient.Response pools = api.get("/api/v1/clusters/" + CLUSTER + "/nodepools");
                return pools.status() == 200 && pools.json().get("items").size() == TPU_POOLS + 1;
            });
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
        return started;
    }

    private static Node node(String pool, int host, boolean tpu) {
        NodeBuilder node = new NodeBuilder()
                .withNewMetadata().withName(pool + "-node-" + host)
                .addToLabels(GkeLabels.NODE_POOL, pool)
                .addToLabels("kubernetes.io/hostname", pool + "-node-" + host)
                .endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus().addToConditions(ready(true)).endStatus();
        if (tpu) {
            node.editMetadata()
                    .addToLabels("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice")
                    .addToLabels("cloud.google.com/gke-tpu-topology", "4x4")
                    .endMetadata()
                    .editStatus()
                    .addToCapacity("google.com/tpu", new Quantity(Integer.toString(CHIPS_PER_HOST)))
                    .addToAllocatable("google.com/tpu", new Quantity(Integer.toString(CHIPS_PER_HOST)))
                    .endStatus();
        }
        return node.build();
    }

    private static NodeCondition ready(boolean ready) {
        return new NodeConditionBuilder().withType("Ready").withStatus(ready ? "True" : "False")
                .withReason(ready ? "KubeletReady" : "KubeletNotReady")
                .withLastTransitionTime(Instant.now().toString())
                .build();
    }

    /** Each of the cluster's pools and its health as the scheduler shows it. */
    public static Map<String, String> poolHealth(PlatformClient api) {
        return api.get("/api/v1/clusters/" + CLUSTER + "/nodepools").json().get("items").valueStream()
                .collect(Collectors.toMap(p -> p.get("name").asString(), p -> p.get("health").asString()));
    }

    /** The node's Ready condition turns True or False, as the node lifecycle controller would set it. */
    public void setReady(String node, boolean ready) {
        kubernetes.client().nodes().withName(node).edit(n -> new NodeBuilder(n).editStatus()
                .withConditions(n.getStatus().getConditions().stream()
                        .map(c -> "Ready".equals(c.getType()) ? ready(ready) : c)
                        .toList())
                .endStatus().build());
    }

    public List<String> nodesOf(String pool) {
        return kubernetes.client().nodes().withLabel(GkeLabels.NODE_POOL, pool).list().getItems().stream()
                .map(n -> n.getMetadata().getName())
                .sorted()
                .toList();
    }

    public Optional<GenericKubernetesResource> jobSet(String name) {
        return Optional.ofNullable(JobSetController.jobSets(kubernetes.client()).inNamespace(NAMESPACE).withName(name).get());
    }

    /** Deletes a JobSet as a person with kubectl would; its pods go with it. */
    public void deleteJobSet(String name) {
        JobSetController.jobSets(kubernetes.client()).inNamespace(NAMESPACE).withName(name).delete();
    }

    /** Sets an annotation of a JobSet as a training job's launcher would (kubectl annotate --overwrite). */
    public void annotateJobSet(String name, String key, String value) {
        JobSetController.jobSets(kubernetes.client()).inNamespace(NAMESPACE).withName(name).edit(j -> {
            Map<String, String> annotations = new HashMap<>(
                    j.getMetadata().getAnnotations() == null ? Map.of() : j.getMetadata().getAnnotations());
            annotations.put(key, value);
            j.getMetadata().setAnnotations(annotations);
            return j;
        });
    }

    public List<Pod> podsOf(String jobSet) {
        return jobSets.podsOf(NAMESPACE, jobSet);
    }

    /** The next {@code times} evictions of this pod answer 429, as a PodDisruptionBudget would. */
    public void refuseEvictions(String pod, int times) {
        kubernetes.refuseEvictions(pod, times);
    }

    /** Pod names, in the order the agent posted their evictions. */
    public List<String> evictionAttempts() {
        return kubernetes.evictionAttempts();
    }

    public KubernetesClient client() {
        return kubernetes.client();
    }

    @Override
    public void close() {
        agent.close();
        jobSets.close();
        kubernetes.close();
    }
}
