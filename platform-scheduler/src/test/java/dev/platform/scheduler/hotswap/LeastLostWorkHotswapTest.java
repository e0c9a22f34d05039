package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * The seed's hotswap under {@code platform.dev/preemption-order: LeastLostWork} on its ClusterQueue, with the real
 * agent on a simulated cluster of four 4x4 v6e pools: a pool under the high-priority JobSet fails, either of two
 * low-priority one-slice JobSets could make room, and the one that has just checkpointed goes, not the most recently
 * admitted one Kueue's order would take. The audit records what that cost: the story of the example in
 * docs/preemption-costs.md.
 */
class LeastLostWorkHotswapTest extends SimulatedClusterTest {

    private static final String SEED = "seed-kueue-and-hotswap.yaml";

    @Test
    void theLowPriorityJobSetThatCheckpointedLastMakesRoomAndTheAuditShowsItsChipSeconds() {
        apply(SeedManifests.without(SEED, "low-jax-trillium").replace("nominalQuota: 32", "nominalQuota: 64")
                .replace("metadata:\n  name: tpu-training-cq\n",
                        "metadata:\n  name: tpu-training-cq\n  annotations: {platform.dev/preemption-order: LeastLostWork}\n"));
        List<String> highPools = nodePools(awaitState("high-jax-trillium", "Running"));
        apply(oneSliceLowPriorityJobSet("low-checkpointed"));
        awaitState("low-checkpointed", "Running");
        apply(oneSliceLowPriorityJobSet("low-newest"));
        Instant newestAdmittedAt = Instant.parse(awaitState("low-newest", "Running").get("admittedAt").asString());
        // The older one checkpoints after the newest was admitted: from here on it has less to lose.
        Instant checkpoint = newestAdmittedAt.plusMillis(1);
        Response patched = api.send("PATCH", "/api/v1/namespaces/default/workloads/low-checkpointed", Map.of(),
                "application/merge-patch+json",
                "{\"metadata\": {\"annotations\": {\"platform.dev/last-checkpoint\": \"" + checkpoint + "\"}}}");
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);

        cluster.failPool(highPools.get(0));

        JsonNode event = awaitRecovered("high-jax-trillium");
        assertThat(event.get("victims").valueStream().map(v -> v.get("name").asString()))
                .as("Kueue's order would take low-newest").containsExactly("low-checkpointed");
        JsonNode preemption = api.get("/api/v1/preemptions?reason=Hotswap").json().get("items").get(0);
        assertThat(preemption.at("/victim/name").asString()).isEqualTo("low-checkpointed");
        assertThat(Instant.parse(preemption.at("/lostWork/since").asString())).isEqualTo(checkpoint);
        // one slice: 4 pods x 4 chips
        double seconds = Duration.between(checkpoint, Instant.parse(preemption.get("at").asString())).toMillis() / 1000.0;
        assertThat(preemption.at("/lostWork/resourceSeconds/google.com~1tpu").asDouble()).isCloseTo(16 * seconds, within(16.0));
        assertThat(workload("low-newest").get("state").asString()).isEqualTo("Running");
    }

    /** The seed's low-priority JobSet named {@code name}, with one slice instead of two. */
    private static String oneSliceLowPriorityJobSet(String name) {
        return SeedManifests.document(SEED, "low-jax-trillium").replace("name: low-jax-trillium", "name: " + name)
                .replace("replicas: 2", "replicas: 1");
    }

    private void apply(String yaml) {
        Response response = api.postYaml("/api/v1/manifests", yaml);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
    }

    private JsonNode awaitRecovered(String name) {
        return await().atMost(Duration.ofSeconds(40)).until(() -> {
            JsonNode items = api.get("/api/v1/hotswaps").json().get("items");
            return items.isEmpty() ? null : items.get(0);
        }, e -> e != null && name.equals(e.at("/disrupted/name").asString()) && "Recovered".equals(e.get("outcome").asString()));
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
