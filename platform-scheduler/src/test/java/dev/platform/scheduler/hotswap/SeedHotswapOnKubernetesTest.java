package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.testsupport.KubernetesAgent;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/**
 * The seed's Hotswap story with the real agent in kubernetes mode
 * against fabric8's mock API server: four 4x4 v6e pools, a ClusterQueue of 64 chips (the seed's
 * config with nominal 64), both seed JobSets running two pools each. One node of a pool under
 * high-jax-trillium turns NotReady: low-jax-trillium is preempted (reason Hotswap) and its pods
 * evicted, high restarts on the freed pools, low waits for a node pool until the node is Ready
 * again. Shared test application, grace period 5 s.
 */
class SeedHotswapOnKubernetesTest extends PlatformApplicationTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int PODS_PER_JOBSET = 8;

    private KubernetesAgent cluster;

    @BeforeEach
    void startAgent() {
        cluster = KubernetesAgent.start(port, api);
    }

    @AfterEach
    void stopAgent() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void highPriorityJobSetComesBackOnTheLowPriorityPoolsAndLowReturnsWhenTheNodeIsReadyAgain() {
        await().atMost(PATIENCE).until(() -> poolHealth().values().stream().filter("Healthy"::equals).count() == 5);

        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        JsonNode high = awaitState("high-jax-trillium", "Running");
        JsonNode low = awaitState("low-jax-trillium", "Running");
        List<String> highPools = nodePools(high);
        List<String> lowPools = nodePools(low);
        assertThat(highPools).hasSize(2).doesNotContainAnyElementsOf(lowPools);
        assertThat(lowPools).hasSize(2);
        List<String> highPods = assertRunsOn("high-jax-trillium", high, highPools);
        List<String> lowPods = assertRunsOn("low-jax-trillium", low, lowPools);

        String failing = highPools.get(1);
        String notReady = cluster.nodesOf(failing).get(2);
        cluster.setReady(notReady, false);
        await().atMost(PATIENCE).until(() -> poolHealth().get(failing), "Unhealthy"::equals);

        JsonNode preemption = await().atMost(PATIENCE).until(
                () -> api.get("/api/v1/preemptions?reason=Hotswap").json().get("items"), items -> items.size() == 1)
                .get(0);
        assertThat(preemption.at("/victim/name").asString()).isEqualTo("low-jax-trillium");
        assertThat(preemption.at("/preemptor/name").asString()).isEqualTo("high-jax-trillium");
        assertThat(preemption.get("message").asString()).contains("due to hotswap").contains(failing);

        JsonNode waiting = await().atMost(PATIENCE).until(() -> workload("low-jax-trillium"),
                w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));
        assertThat(waiting.get("state").asString()).isEqualTo("Pending");

        JsonNode restarted = await().atMost(PATIENCE).until(() -> workload("high-jax-trillium"),
                w -> "Running".equals(w.get("state").asString()) && !nodePools(w).contains(failing));
        List<String> replacementPools = nodePools(restarted);
        assertThat(replacementPools).containsExactlyInAnyOrder(highPools.get(0), lowPools.get(0));
        assertThat(jdbc.sql("SELECT restarts FROM workload WHERE name = 'high-jax-trillium'").query(Integer.class)
                .single()).isEqualTo(1);
        List<String> restartedPods = assertRunsOn("high-jax-trillium", restarted, replacementPools);
        assertThat(restartedPods).doesNotContainAnyElementsOf(highPods);

        assertThat(cluster.podsOf("low-jax-trillium")).isEmpty();
        GenericKubernetesResource lowJobSet = cluster.jobSet("low-jax-trillium").orElseThrow();
        assertThat((Boolean) lowJobSet.get("spec", "suspend")).as("low's JobSet suspended").isTrue();
        assertThat(cluster.evictionAttempts()).containsAll(lowPods).containsAll(highPods)
                .hasSize(2 * PODS_PER_JOBSET);

        JsonNode event = await().atMost(PATIENCE).until(
                () -> api.get("/api/v1/hotswaps").json().get("items").get(0), e -> !e.get("runningAt").isNull());
        assertThat(event.get("cluster").asString()).isEqualTo(KubernetesAgent.CLUSTER);
        assertThat(event.get("nodePool").asString()).isEqualTo(failing);
        assertThat(event.get("nodes").valueStream().map(JsonNode::asString)).containsExactly(notReady);
        assertThat(event.get("outcome").asString()).isEqualTo("Recovered");
        assertThat(event.at("/disrupted/name").asString()).isEqualTo("high-jax-trillium");
        assertThat(event.get("victims").valueStream().map(v -> v.get("name").asString())).containsExactly("low-jax-trillium");
        assertThat(event.get("replacementPools").valueStream().map(JsonNode::asString))
                .containsExactlyInAnyOrderElementsOf(replacementPools);
        for (String phase : List.of("detectedAt", "decidedAt", "evictionsDoneAt", "runningAt")) {
            assertThat(event.get(phase).isNull()).as(phase).isFalse();
        }
        System.out.printf("hotswap on kubernetes: MTTR %.3f s (detected %s, decided %s, evicted %s, running %s)%n",
                event.get("mttrSeconds").asDouble(), event.get("detectedAt").asString(),
                event.get("decidedAt").asString(), event.get("evictionsDoneAt").asString(),
                event.get("runningAt").asString());

        List<Tuple> commands = await().atMost(PATIENCE).until(this::commands, c -> c.size() == 4
                && c.stream().noneMatch(t -> List.of("Pending", "Delivered").contains(t.toList().get(2))));
        assertThat(commands.subList(0, 2)).containsExactlyInAnyOrder(
                tuple("START", "high-jax-trillium", "Succeeded", "JobSet created"),
                tuple("START", "low-jax-trillium", "Succeeded", "JobSet created"));
        assertThat(commands.subList(2, 4)).containsExactly(
                tuple("STOP", "low-jax-trillium", "Succeeded",
                        "JobSet suspended, 8 pod(s) evicted [evicted 8 pod(s), 0 PodDisruptionBudget rejection(s)]"),
                tuple("RESTART", "high-jax-trillium", "Succeeded",
                        "old pods gone; existing JobSet pinned and resumed [evicted 8 pod(s), 0 PodDisruptionBudget rejection(s)]"));
        assertThat(api.get("/actuator/prometheus", "text/plain").body())
                .contains("platform_hotswap_recovery_seconds_bucket")
                .contains("phase=\"decided\"").contains("phase=\"evicted\"").contains("phase=\"running\"");

        // kubectl describe jobset, in the cluster: the agent wrote the platform's decisions as Events
        assertThat(await().atMost(PATIENCE).until(() -> eventReasons("high-jax-trillium"), r -> r.contains("Hotswapped")))
                .contains("Admitted");
        assertThat(await().atMost(PATIENCE).until(() -> eventReasons("low-jax-trillium"),
                r -> r.contains("Preempted") && r.contains("Evicted"))).contains("Admitted");

        cluster.setReady(notReady, true);

        JsonNode back = awaitState("low-jax-trillium", "Running");
        assertThat(nodePools(back)).containsExactlyInAnyOrder(failing, lowPools.get(1));
        assertRunsOn("low-jax-trillium", back, nodePools(back));
        // The agent posts a command's result after the pods it started are reported: wait for it.
        assertThat(await().atMost(PATIENCE).until(this::commands, c -> c.size() == 5
                && !"Delivered".equals(c.get(4).toList().get(2)) && !"Pending".equals(c.get(4).toList().get(2)))).last()
                .isEqualTo(tuple("START", "low-jax-trillium", "Succeeded", "existing JobSet pinned and resumed"));
    }

    /**
     * The workload's JobSet in the cluster runs, labelled with the workload's uid, each slice's
     * four pods on the four hosts of one of its pools; returns the pod names.
     */
    private List<String> assertRunsOn(String name, JsonNode workload, List<String> pools) {
        List<Pod> pods = await().atMost(PATIENCE).until(() -> cluster.podsOf(name),
                p -> p.size() == PODS_PER_JOBSET && p.stream().allMatch(pod -> "Running".equals(pod.getStatus().getPhase())));
        GenericKubernetesResource jobSet = cluster.jobSet(name).orElseThrow();
        assertThat((Boolean) jobSet.get("spec", "suspend")).isFalse();
        assertThat(jobSet.getMetadata().getLabels()).containsEntry("platform.dev/workload-uid", workload.get("uid").asString());
        Map<String, List<String>> nodesByPool = pods.stream().collect(Collectors.groupingBy(
                pod -> pod.getSpec().getNodeName().replaceAll("-node-\\d+$", ""),
                Collectors.mapping(pod -> pod.getSpec().getNodeName(), Collectors.toList())));
        assertThat(nodesByPool.keySet()).containsExactlyInAnyOrderElementsOf(pools);
        nodesByPool.forEach((pool, nodes) -> assertThat(nodes).as(pool).containsExactlyInAnyOrderElementsOf(cluster.nodesOf(pool)));
        return pods.stream().map(pod -> pod.getMetadata().getName()).toList();
    }

    /** The agent commands in the order queued: type, JobSet, state and the agent's result. */
    private List<Tuple> commands() {
        return jdbc.sql("SELECT type, name, state, result_message FROM agent_command ORDER BY seq")
                .query((rs, i) -> tuple(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)))
                .list();
    }

    private Map<String, String> poolHealth() {
        return KubernetesAgent.poolHealth(api);
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(PATIENCE).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }

    /** The reasons of the Events on a JobSet in the cluster. */
    private List<String> eventReasons(String jobSet) {
        return cluster.client().v1().events().inNamespace(KubernetesAgent.NAMESPACE).list().getItems().stream()
                .filter(e -> jobSet.equals(e.getInvolvedObject().getName())).map(e -> e.getReason()).toList();
    }
}
