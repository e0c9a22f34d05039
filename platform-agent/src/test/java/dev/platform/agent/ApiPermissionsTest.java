package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.cluster.ApiPermissions;
import dev.platform.agent.cluster.ApiPermissions.Rule;
import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.leadership.LeaseLeadership;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.agent.testing.MockKubernetes.ApiRequest;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.ProvisioningRequestSpec;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The RBAC the chart grants is derived from what the agent does: a whole agent (Lease leader
 * election, informers, START, STOP with evictions, DELETE of a JobSet and of a batch Job, hand-over on close) runs
 * against the
 * mock API server, every request it made is turned into the RBAC verb the API server would check,
 * and the result must equal {@link ApiPermissions}: a verb the code gained fails here until the
 * list (and with it the chart) grants it, a verb it lost fails until the list drops it.
 */
class ApiPermissionsTest {

    /** /api/v1/... or /apis/group/version/...; then an optional namespace, resource, name, subresource. */
    private static final Pattern API_PATH = Pattern.compile(
            "^/(?:api/v1|apis/(?<group>[^/]+)/[^/]+)(?:/namespaces/[^/]+)?/(?<resource>[^/]+)(?:/(?<name>[^/]+)(?:/(?<sub>[^/]+))?)?$");

    private final JsonMapper json = Agent.json();
    private MockKubernetes kube;
    private FakeScheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        kube = new MockKubernetes();
        scheduler = new FakeScheduler();
    }

    @AfterEach
    void stop() {
        scheduler.close();
        kube.close();
    }

    @Test
    void everyRequestOfAWholeAgentLifecycleIsGrantedByExactlyTheDocumentedRules() throws Exception {
        kube.client().nodes().resource(new NodeBuilder().withNewMetadata().withName("node-0")
                .addToLabels("cloud.google.com/gke-nodepool", "pool-a").endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addToCapacity("google.com/tpu", new Quantity("4")).addToAllocatable("google.com/tpu", new Quantity("4"))
                .endStatus().build()).create();
        Agent agent = new Agent(new AgentSettings(scheduler.url(), "rbac", FakeScheduler.TOKEN, "agent-0",
                Duration.ofMillis(50), 1, new Backoff(Duration.ofMillis(50), Duration.ofMillis(400)),
                new EvictionPolicy(new Backoff(Duration.ofMillis(20), Duration.ofMillis(100)), Duration.ofSeconds(10)),
                AgentSettings.DEFAULT_HEARTBEAT),
                new KubernetesCluster(kube.apiClient(), kube.apiClient(), json),
                new LeaseLeadership(kube.apiClient(), "default", "platform-agent", "agent-0", Duration.ofSeconds(2)),
                Clock.systemUTC());
        try {
            agent.start();
            await().atMost(Duration.ofSeconds(15)).until(agent::isLeader);
            scheduler.setProvisioningRequests(List.of(new ProvisioningRequestSpec("default", "training-dws-1", "wl-1",
                    "training", "dws", 1, "queued-provisioning.gke.io", Map.of(), List.of(
                    new ProvisioningRequestSpec.PodSet("workers", "ppt-training-dws-1-workers", 4,
                            json.readTree("{\"spec\": {\"containers\": [{\"name\": \"main\"}]}}"))))));
            await().atMost(Duration.ofSeconds(15)).until(() -> !agent.cluster().provisioningRequests().isEmpty());

            scheduler.enqueue(new AgentCommand(1, CommandType.START, "wl-1", "default", "training", null,
                    new CommandPayload(seedJobSet(), "low-priority-job", List.of("pool-a"), Map.of(), "tpu-v6e-slice")));
            awaitFinal(1);
            kube.client().pods().inNamespace("default").resource(new PodBuilder()
                    .withNewMetadata().withName("training-0").withNamespace("default")
                    .addToLabels(AgentProtocol.MANAGED_LABEL, "true").addToLabels(AgentProtocol.WORKLOAD_UID_LABEL, "wl-1")
                    .endMetadata()
                    .withNewSpec().withNodeName("node-0").addNewContainer().withName("main").withImage("jax").endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus().build()).create();
            await().atMost(Duration.ofSeconds(15)).until(() -> !agent.cluster().podsOf("wl-1").isEmpty());
            scheduler.enqueue(new AgentCommand(2, CommandType.STOP, "wl-1", "default", "training", null, null));
            awaitFinal(2);
            scheduler.enqueue(new AgentCommand(3, CommandType.DELETE, "wl-1", "default", "training", null, null));
            awaitFinal(3);
            scheduler.enqueue(new AgentCommand(4, CommandType.START, "wl-2", "default", "etl", null,
                    new CommandPayload(json.readTree("""
                            {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "etl", "namespace": "default"},
                             "spec": {"template": {"spec": {"containers": [{"name": "main", "image": "etl"}],
                                                            "restartPolicy": "Never"}}}}"""),
                            null, List.of("pool-a"), Map.of(), "default")));
            awaitFinal(4);
            scheduler.enqueue(new AgentCommand(5, CommandType.STOP, "wl-2", "default", "etl", null, null));
            awaitFinal(5);
            scheduler.enqueue(new AgentCommand(6, CommandType.DELETE, "wl-2", "default", "etl", null, null));
            awaitFinal(6);
            scheduler.setProvisioningRequests(List.of());
            await().atMost(Duration.ofSeconds(15)).until(() -> agent.cluster().provisioningRequests().isEmpty()
                    && kube.client().resources(io.fabric8.kubernetes.api.model.PodTemplate.class).inNamespace("default")
                    .list().getItems().isEmpty());
            assertThat(kube.evictionAttempts()).containsExactly("training-0");
        } finally {
            agent.close();
        }

        assertThat(granted(kube.apiRequests())).isEqualTo(
                granted(Stream.concat(ApiPermissions.CLUSTER.stream(), ApiPermissions.LEADER_ELECTION.stream()).toList()));
    }

    private void awaitFinal(long id) {
        await().atMost(Duration.ofSeconds(15)).until(() -> scheduler.resultsOf(id).stream().anyMatch(r -> r.status().isFinal()));
        assertThat(scheduler.resultsOf(id)).last().satisfies(r -> assertThat(r.status()).isEqualTo(CommandStatus.SUCCEEDED));
    }

    /** "group resource" to verbs, from the requests as the API server's authorizer sees them. */
    private static Map<String, Set<String>> granted(List<ApiRequest> requests) {
        Map<String, Set<String>> verbs = new TreeMap<>();
        for (ApiRequest request : requests) {
            Matcher path = API_PATH.matcher(request.path());
            assertThat(path.matches()).as("a Kubernetes API path: %s", request.path()).isTrue();
            String resource = path.group("resource") + (path.group("sub") == null ? "" : "/" + path.group("sub"));
            String key = (path.group("group") == null ? "" : path.group("group")) + " " + resource;
            verbs.computeIfAbsent(key, k -> new TreeSet<>()).add(verb(request, path.group("name") != null));
        }
        return verbs;
    }

    private static Map<String, Set<String>> granted(Iterable<Rule> rules) {
        Map<String, Set<String>> verbs = new TreeMap<>();
        for (Rule rule : rules) {
            verbs.computeIfAbsent(rule.apiGroup() + " " + rule.resource(), k -> new TreeSet<>()).addAll(rule.verbs());
        }
        return verbs;
    }

    private static String verb(ApiRequest request, boolean item) {
        return switch (request.method()) {
            case "GET" -> request.isWatch() ? "watch" : item ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> item ? "delete" : "deletecollection";
            default -> throw new AssertionError("unexpected method " + request.method());
        };
    }

    @SuppressWarnings("unchecked")
    private JsonNode seedJobSet() throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/seed-manifests/seed-kueue-and-hotswap.yaml")) {
            for (Object document : new Yaml().loadAll(in)) {
                Map<String, Object> manifest = new HashMap<>((Map<String, Object>) document);
                if ("JobSet".equals(manifest.get("kind"))) {
                    Map<String, Object> metadata = new HashMap<>((Map<String, Object>) manifest.get("metadata"));
                    metadata.put("name", "training");
                    metadata.put("namespace", "default");
                    manifest.put("metadata", metadata);
                    return json.valueToTree(manifest);
                }
            }
        }
        throw new IllegalStateException("no JobSet in the seed");
    }
}
