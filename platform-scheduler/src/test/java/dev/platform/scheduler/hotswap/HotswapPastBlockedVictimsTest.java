package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.testsupport.KubernetesAgent;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hotswap whose victim a PodDisruptionBudget will not let go chooses again: on the Kubernetes agent against
 * fabric8's mock, high-jax-trillium runs on two pools, and low-a (low priority) and low-b (between the two) on one
 * pool each; a node of a pool under high fails, the first victim's (low-a's) evictions answer 429 (the test's eviction endpoint), so high's pods
 * wait for its hosts. Once that has lasted past platform.hotswap.blocked-evictions (the event's times moved back
 * rather than waited for), the hotswap evicts low-b instead and high runs on its pool; the
 * new hotswap event and the new preemption say why, the first event ends Superseded.
 */
class HotswapPastBlockedVictimsTest extends PlatformApplicationTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private KubernetesAgent cluster;

    @BeforeEach
    void startAgent() {
        cluster = KubernetesAgent.startWithExclusiveHosts(port, api);
    }

    @AfterEach
    void stopAgent() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void victimsWhoseEvictionsStayRefusedAreReplacedByOthers() {
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        String[] documents = seed.split("(?m)^---\\n");
        String low = documents[5];
        StringBuilder manifests = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            manifests.append(documents[i]).append("---\n");
        }
        manifests.append(low.replace("name: low-jax-trillium", "name: low-a").replace("replicas: 2", "replicas: 1"))
                .append("---\n")
                .append(low.replace("name: low-jax-trillium", "name: low-b").replace("replicas: 2", "replicas: 1")
                        .replace("low-priority-job", "mid-priority-job"))
                .append("---\n").append(documents[6]).append("---\n")
                .append(Manifests.priorityClass("mid-priority-job", 1_500_000));
        assertThat(api.postYaml("/api/v1/manifests", manifests.toString()).status()).isEqualTo(200);
        List<String> highPools = nodePools(awaitState("high-jax-trillium", "Running"));
        awaitState("low-a", "Running");
        awaitState("low-b", "Running");
        // lower priority first: low-a is the first candidate, low-b (mid priority) the next
        String first = "low-a";
        String other = "low-b";
        List<String> otherPools = nodePools(workload(other));
        for (Pod pod : cluster.podsOf(first)) {
            cluster.refuseEvictions(pod.getMetadata().getName(), 100_000);
        }

        String failing = highPools.get(1);
        cluster.setReady(cluster.nodesOf(failing).get(0), false);

        JsonNode blocked = await().atMost(PATIENCE).until(this::hotswaps, events -> !events.isEmpty()
                && events.get(0).path("waitingFor").asString("").contains("PodDisruptionBudget")).get(0);
        assertThat(blocked.get("victims").valueStream().map(v -> v.get("name").asString())).containsExactly(first);
        assertThat(workload("high-jax-trillium").get("state").asString()).as("its pods wait for the hosts")
                .isEqualTo("Admitted");
        jdbc.sql("""
                UPDATE hotswap_event SET detected_at = detected_at - interval '2 minutes',
                                         decided_at = decided_at - interval '2 minutes'""").update();

        JsonNode repicked = await().atMost(PATIENCE).until(() -> hotswaps(), events -> events.size() == 2).get(0);
        assertThat(repicked.get("victims").valueStream().map(v -> v.get("name").asString())).containsExactly(other);
        assertThat(repicked.get("reason").asString()).contains("default/" + first)
                .contains("refused for longer than 60s");
        assertThat(hotswaps().get(1).get("outcome").asString()).isEqualTo("Superseded");
        JsonNode preemption = api.get("/api/v1/preemptions?reason=Hotswap").json().get("items").get(0);
        assertThat(preemption.at("/victim/name").asString()).isEqualTo(other);
        assertThat(preemption.get("message").asString()).contains("refused for longer than 60s");

        JsonNode recovered = await().atMost(PATIENCE).until(() -> workload("high-jax-trillium"),
                w -> "Running".equals(w.get("state").asString()));
        assertThat(nodePools(recovered)).containsExactlyInAnyOrder(highPools.get(0), otherPools.get(0));
        assertThat(await().atMost(PATIENCE).until(() -> hotswaps().get(0), e -> !e.get("runningAt").isNull())
                .get("outcome").asString()).isEqualTo("Recovered");
    }

    private List<JsonNode> hotswaps() {
        return api.get("/api/v1/hotswaps").json().get("items").valueStream().toList();
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(PATIENCE).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
