package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hotswap's edge cases with the real agent on a simulated cluster of
 * four 4x4 v6e pools, in the shared test application (grace period 5 s).
 */
class HotswapEdgeCasesTest extends SimulatedClusterTest {

    private static final Duration GRACE_AND_MARGIN = Duration.ofSeconds(8);
    private static final String SEED = "seed-kueue-and-hotswap.yaml";

    @Test
    void twoPoolsFailingAtOnceAreBothReplaced() {
        List<String> highPools = runBothSeedJobSets();

        cluster.failPool(highPools.get(0));
        cluster.failPool(highPools.get(1));

        JsonNode event = awaitRecovered("high-jax-trillium");
        assertThat(event.get("victims").valueStream().map(v -> v.get("name").asString())).containsExactly("low-jax-trillium");
        assertThat(event.get("replacementPools").valueStream().map(JsonNode::asString))
                .doesNotContainAnyElementsOf(highPools).hasSize(2);
        assertThat(workload("low-jax-trillium").at("/pendingReason/code").asString()).isEqualTo("WaitingForNodePool");
    }

    @Test
    void aVictimIsChosenByThePriorityItWasChangedToWhileItRuns() {
        apply(SeedManifests.without(SEED, "low-jax-trillium").replace("nominalQuota: 32", "nominalQuota: 64") + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata:
                  name: urgent
                value: 3000000
                """);
        List<String> highPools = nodePools(awaitState("high-jax-trillium", "Running"));
        apply(oneSliceLowPriorityJobSet("low-first"));
        awaitState("low-first", "Running");
        // admitted last: the first victim by Kueue's order while both are at the low priority
        apply(oneSliceLowPriorityJobSet("low-raised"));
        List<String> raisedPools = nodePools(awaitState("low-raised", "Running"));

        Response raised = api.send("PATCH", "/api/v1/namespaces/default/workloads/low-raised", Map.of(),
                "application/merge-patch+json", "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"urgent\"}}}");
        assertThat(raised.status()).as(raised.body()).isEqualTo(200);
        assertThat(raised.json().get("priority").asInt()).isGreaterThan(workload("high-jax-trillium").get("priority").asInt());
        // no need to wait for the loop: the turn that decides the hotswap reads the change feed first
        cluster.failPool(highPools.get(0));

        JsonNode event = awaitRecovered("high-jax-trillium");
        assertThat(event.get("victims").valueStream().map(v -> v.get("name").asString())).containsExactly("low-first");
        assertThat(event.get("replacementPools").valueStream().map(JsonNode::asString)).doesNotContainAnyElementsOf(raisedPools);
        JsonNode stillRunning = workload("low-raised");
        assertThat(stillRunning.get("state").asString()).isEqualTo("Running");
        assertThat(nodePools(stillRunning)).containsExactlyElementsOf(raisedPools);
    }

    @Test
    void withNoEligibleVictimTheDisruptedWorkloadIsRequeuedAndItsQuotaReleased() {
        List<String> highPools = runBothSeedJobSets();
        List<String> lowPools = nodePools(workload("low-jax-trillium"));

        cluster.failPool(lowPools.get(0));

        JsonNode event = await().atMost(Duration.ofSeconds(30)).until(() -> latestHotswap(), e -> e != null);
        assertThat(event.get("outcome").asString()).isEqualTo("Requeued");
        assertThat(event.get("victims")).isEmpty();
        JsonNode low = await().atMost(Duration.ofSeconds(20)).until(() -> workload("low-jax-trillium"),
                w -> "Pending".equals(w.get("state").asString()));
        assertThat(low.get("conditions").valueStream().map(c -> c.get("type").asString() + "/" + c.get("reason").asString()))
                .contains("Evicted/NodeFailures");
        assertThat(nodePools(workload("high-jax-trillium"))).containsExactlyElementsOf(highPools);
        assertThat(api.get("/api/v1/preemptions?reason=Hotswap").json().get("items")).isEmpty();
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json().at("/usage/0/used").asString()).isEqualTo("32");
    }

    @Test
    void equalPriorityWorkloadsAreNeverPreempted() {
        apply(SeedManifests.read(SEED).replace("nominalQuota: 32", "nominalQuota: 64")
                .replace("high-priority-job\n            containers", "low-priority-job\n            containers"));
        List<String> first = nodePools(awaitState("high-jax-trillium", "Running"));
        awaitState("low-jax-trillium", "Running");

        cluster.failPool(first.get(0));

        JsonNode event = await().atMost(Duration.ofSeconds(30)).until(() -> latestHotswap(), e -> e != null);
        assertThat(event.get("outcome").asString()).isEqualTo("Requeued");
        assertThat(event.get("victims")).isEmpty();
        assertThat(workload("low-jax-trillium").get("state").asString()).isEqualTo("Running");
    }

    @Test
    void aNodeThatFlapsWithinTheGracePeriodChangesNothing() {
        List<String> highPools = runBothSeedJobSets();

        cluster.failPool(highPools.get(0));
        await().atMost(Duration.ofSeconds(5)).until(() -> poolHealth(highPools.get(0)), "Unhealthy"::equals);
        cluster.recoverPool(highPools.get(0));

        await().during(GRACE_AND_MARGIN).atMost(GRACE_AND_MARGIN.plusSeconds(5)).until(() -> latestHotswap() == null);
        assertThat(nodePools(workload("high-jax-trillium"))).containsExactlyElementsOf(highPools);
        assertThat(workload("low-jax-trillium").get("state").asString()).isEqualTo("Running");
    }

    @Test
    void aStaleAgentCausesNoEviction() {
        List<String> highPools = runBothSeedJobSets();
        agent.close();
        jdbc.sql("UPDATE cluster SET last_report_at = now() - interval '10 minutes'").update();
        jdbc.sql("UPDATE node_pool SET health = 'Unhealthy', unhealthy_since = now() - interval '1 minute' WHERE name = ?")
                .param(highPools.get(0)).update();
        loop.wake();

        await().during(GRACE_AND_MARGIN).atMost(GRACE_AND_MARGIN.plusSeconds(5)).until(() -> latestHotswap() == null);
        assertThat(api.get("/api/v1/clusters/sim/nodepools").json().get("stale").asBoolean()).isTrue();
        assertThat(workload("low-jax-trillium").get("state").asString()).isEqualTo("Running");
        assertThat(api.get("/api/v1/preemptions").json().get("items")).isEmpty();
    }

    @Test
    void pastMaxRestartsTheWorkloadFails() {
        apply(SeedManifests.read(SEED).replace("nominalQuota: 32", "nominalQuota: 64")
                .replace("maxRestarts: 10", "maxRestarts: 0"));
        List<String> highPools = nodePools(awaitState("high-jax-trillium", "Running"));
        awaitState("low-jax-trillium", "Running");

        cluster.failPool(highPools.get(0));

        JsonNode failed = await().atMost(Duration.ofSeconds(30)).until(() -> workload("high-jax-trillium"),
                w -> "Failed".equals(w.get("state").asString()));
        assertThat(failed.get("conditions").valueStream().map(c -> c.get("type").asString() + "/" + c.get("reason").asString()))
                .contains("Finished/MaxRestartsExceeded");
        assertThat(latestHotswap().get("outcome").asString()).isEqualTo("Failed");
        assertThat(latestHotswap().get("victims")).isEmpty();
        assertThat(workload("low-jax-trillium").get("state").asString()).isEqualTo("Running");
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json().at("/usage/0/used").asString()).isEqualTo("32");
    }

    /** The seed's two JobSets with 64 chips of quota: both run, two pools each; returns high's pools. */
    private List<String> runBothSeedJobSets() {
        apply(SeedManifests.read(SEED).replace("nominalQuota: 32", "nominalQuota: 64"));
        List<String> high = nodePools(awaitState("high-jax-trillium", "Running"));
        assertThat(nodePools(awaitState("low-jax-trillium", "Running"))).doesNotContainAnyElementsOf(high);
        return high;
    }

    /** The seed's low-priority JobSet named {@code name}, with one slice instead of two. */
    private static String oneSliceLowPriorityJobSet(String name) {
        return SeedManifests.document(SEED, "low-jax-trillium").replace("name: low-jax-trillium", "name: " + name)
                .replace("replicas: 2", "replicas: 1");
    }

    private void apply(String yaml) {
        assertThat(api.postYaml("/api/v1/manifests", yaml).status()).isEqualTo(200);
    }

    private JsonNode awaitRecovered(String name) {
        return await().atMost(Duration.ofSeconds(40)).until(() -> latestHotswap(),
                e -> e != null && name.equals(e.at("/disrupted/name").asString()) && "Recovered".equals(e.get("outcome").asString()));
    }

    private JsonNode latestHotswap() {
        JsonNode items = api.get("/api/v1/hotswaps").json().get("items");
        return items.isEmpty() ? null : items.get(0);
    }

    private String poolHealth(String name) {
        for (JsonNode pool : api.get("/api/v1/clusters/sim/nodepools").json().get("items")) {
            if (pool.get("name").asString().equals(name)) {
                return pool.get("health").asString();
            }
        }
        return null;
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
