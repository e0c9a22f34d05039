package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Priority-only mode, which an Admin allowed in namespace default: JobSets without a queue name run as GKE runs
 * them without Kueue, with the real agent on a simulated cluster of four 4x4 v6e pools. No quota; free pools
 * first; otherwise lower-priority holders are preempted (reason PriorityPreemption), unless the
 * PriorityClass says {@code preemptionPolicy: Never}.
 */
class PriorityOnlyModeTest extends SimulatedClusterTest {

    private static final String PRIORITY_CLASSES = SeedManifests.without("seed-hotswap.yaml", "high-jax-trillium");

    /** An Admin allows priority-only mode in namespace default, where the seed's JobSets go. */
    @BeforeEach
    void allowPriorityOnlyMode() {
        apply(Manifests.priorityOnlyNamespace("default"));
    }

    @Test
    void theSeedHotswapJobSetRunsOnFreePools() {
        JsonNode applied = api.postYaml("/api/v1/manifests", SeedManifests.read("seed-hotswap.yaml")).json();
        assertThat(applied.get("results").valueStream().map(r -> r.get("kind").asString() + "/" + r.get("action").asString()))
                .containsExactly("PriorityClass/created", "PriorityClass/created", "JobSet/created");

        JsonNode running = awaitState("high-jax-trillium", "Running");

        assertThat(running.get("priority").asInt()).isEqualTo(2000000);
        assertThat(running.get("clusterQueue").isNull()).isTrue();
        assertThat(nodePools(running)).hasSize(2).allMatch(p -> p.startsWith("sim-v6e-4x4-"));
        assertThat(conditions(running)).contains("Admitted/PriorityOnly");
        assertThat(api.get("/api/v1/preemptions").json().get("items")).isEmpty();
    }

    @Test
    void withNoFreePoolTheHighPriorityJobSetPreemptsTheMostRecentLowPriorityOne() {
        apply(PRIORITY_CLASSES);
        List<String> firstPools = nodePools(runLow("low-first"));
        List<String> secondPools = nodePools(runLow("low-second"));

        apply(highJobSet());

        JsonNode preemption = await().atMost(Duration.ofSeconds(30))
                .until(() -> api.get("/api/v1/preemptions").json().get("items"), items -> items.size() == 1).get(0);
        assertThat(preemption.get("reason").asString()).isEqualTo("PriorityPreemption");
        assertThat(preemption.at("/victim/name").asString()).isEqualTo("low-second");
        assertThat(preemption.at("/preemptor/name").asString()).isEqualTo("high-jax-trillium");
        assertThat(preemption.get("message").asString()).contains("priority-only mode");
        JsonNode high = awaitState("high-jax-trillium", "Running");
        assertThat(nodePools(high)).containsExactlyInAnyOrderElementsOf(secondPools);
        assertThat(conditions(high)).contains("Admitted/PriorityOnly");

        JsonNode victim = await().atMost(Duration.ofSeconds(30)).until(() -> workload("low-second"),
                w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));
        assertThat(victim.get("state").asString()).isEqualTo("Pending");
        assertThat(conditions(victim)).contains("Evicted/Preempted", "Preempted/PriorityPreemption");
        assertThat(jdbc.sql("""
                        SELECT c.type FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                        WHERE w.name = 'low-second' ORDER BY c.seq""").query(String.class).list())
                .containsExactly("START", "STOP");
        String victimUid = victim.get("uid").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.podsOf(victimUid).isEmpty()
                && cluster.jobSet("default", "low-second").map(j -> j.suspended()).orElse(true));
        assertThat(nodePools(workload("low-first"))).containsExactlyInAnyOrderElementsOf(firstPools);
        assertThat(workload("low-first").get("state").asString()).isEqualTo("Running");

        assertThat(api.get("/queues", "text/html").body()).contains("Without a queue (priority-only mode)")
                .contains("default/high-jax-trillium").contains(secondPools.get(0))
                .contains("default/low-second").contains("needs 2 free healthy node pool(s)");

        assertThat(api.delete("/api/v1/namespaces/default/workloads/high-jax-trillium").status()).isEqualTo(200);
        assertThat(nodePools(awaitState("low-second", "Running"))).containsExactlyInAnyOrderElementsOf(secondPools);
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.jobSet("default", "high-jax-trillium").isEmpty());
    }

    @Test
    void aPriorityClassThatNeverPreemptsWaitsForAFreePool() {
        apply(PRIORITY_CLASSES.replace("value: 2000000", "value: 2000000\npreemptionPolicy: Never"));
        runLow("low-first");
        runLow("low-second");

        apply(highJobSet());

        JsonNode waiting = await().atMost(Duration.ofSeconds(30)).until(() -> workload("high-jax-trillium"),
                w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));
        assertThat(waiting.get("state").asString()).isEqualTo("Pending");
        assertThat(waiting.at("/pendingReason/message").asString()).contains("preemptionPolicy Never");
        assertThat(api.get("/api/v1/preemptions").json().get("items")).isEmpty();

        assertThat(api.delete("/api/v1/namespaces/default/workloads/low-first").status()).isEqualTo(200);
        awaitState("high-jax-trillium", "Running");
        assertThat(workload("low-second").get("state").asString()).isEqualTo("Running");
        assertThat(api.get("/api/v1/preemptions").json().get("items")).isEmpty();
    }

    @Test
    void aWaitingJobSetThatNeverPreemptsDoesNotHoldBackALowerOneThatMay() {
        apply(PRIORITY_CLASSES.replace("value: 2000000", "value: 2000000\npreemptionPolicy: Never") + """
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata:
                  name: mid-priority-job
                value: 1500000
                """);
        runLow("low-first");
        List<String> secondPools = nodePools(runLow("low-second"));

        apply(highJobSet() + "---" + lowJobSet("mid").replace("low-priority-job", "mid-priority-job"));

        JsonNode mid = awaitState("mid", "Running");
        assertThat(nodePools(mid)).containsExactlyInAnyOrderElementsOf(secondPools);
        JsonNode high = workload("high-jax-trillium");
        assertThat(high.get("state").asString()).isEqualTo("Pending");
        assertThat(high.at("/pendingReason/message").asString()).contains("preemptionPolicy Never");
        assertThat(api.get("/api/v1/preemptions").json().get("items")).singleElement()
                .satisfies(p -> assertThat(p.at("/preemptor/name").asString()).isEqualTo("mid"));
    }

    @Test
    void equalPriorityIsNeverPreempted() {
        apply(PRIORITY_CLASSES);
        runLow("low-first");
        runLow("low-second");

        apply(lowJobSet("low-third"));

        JsonNode waiting = await().atMost(Duration.ofSeconds(30)).until(() -> workload("low-third"),
                w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));
        assertThat(waiting.get("state").asString()).isEqualTo("Pending");
        assertThat(api.get("/api/v1/preemptions").json().get("items")).isEmpty();
        assertThat(workload("low-first").get("state").asString()).isEqualTo("Running");
        assertThat(workload("low-second").get("state").asString()).isEqualTo("Running");
    }

    @Test
    void aHolderLoweredWhileItRunsIsPreemptedByAWaitingJobSetItOutrankedBefore() {
        apply(PRIORITY_CLASSES + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata:
                  name: background
                value: 1
                """);
        List<String> loweredPools = nodePools(runLow("low-lowered"));
        runLow("low-second");
        apply(lowJobSet("low-third"));
        await().atMost(Duration.ofSeconds(30)).until(() -> workload("low-third"),
                w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));

        assertThat(api.send("PATCH", "/api/v1/namespaces/default/workloads/low-lowered", Map.of(),
                "application/merge-patch+json", "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"background\"}}}")
                .status()).isEqualTo(200);

        JsonNode third = awaitState("low-third", "Running");
        assertThat(nodePools(third)).containsExactlyInAnyOrderElementsOf(loweredPools);
        assertThat(api.get("/api/v1/preemptions").json().get("items")).singleElement()
                .satisfies(p -> assertThat(p.at("/victim/name").asString()).isEqualTo("low-lowered"));
        assertThat(workload("low-second").get("state").asString()).isEqualTo("Running");
    }

    @Test
    void cancellingAPreemptedWorkloadDeletesTheJobSetItLeftSuspended() {
        apply(PRIORITY_CLASSES);
        runLow("low-first");
        runLow("low-second");
        apply(highJobSet());
        await().atMost(Duration.ofSeconds(30)).until(() -> workload("low-second"),
                w -> "Pending".equals(w.get("state").asString()));
        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.jobSet("default", "low-second")
                .map(j -> j.suspended()).orElse(false));

        assertThat(api.delete("/api/v1/namespaces/default/workloads/low-second").status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(30)).until(() -> cluster.jobSet("default", "low-second").isEmpty());
        assertThat(jdbc.sql("""
                        SELECT c.type FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                        WHERE w.name = 'low-second' ORDER BY c.seq""").query(String.class).list())
                .containsExactly("START", "STOP", "DELETE");
    }

    /** The seed's low-priority JobSet without its queue name, under another name. */
    private static String lowJobSet(String name) {
        return SeedManifests.document("seed-kueue-and-hotswap.yaml", "low-jax-trillium").replace("    kueue.x-k8s.io/queue-name: default-queue\n", "")
                .replace("name: low-jax-trillium", "name: " + name);
    }

    private static String highJobSet() {
        return SeedManifests.document("seed-hotswap.yaml", "high-jax-trillium");
    }

    private JsonNode runLow(String name) {
        apply(lowJobSet(name));
        return awaitState(name, "Running");
    }

    private void apply(String yaml) {
        assertThat(api.postYaml("/api/v1/manifests", yaml).status()).isEqualTo(200);
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }

    private static List<String> conditions(JsonNode workload) {
        return workload.get("conditions").valueStream()
                .map(c -> c.get("type").asString() + "/" + c.get("reason").asString()).toList();
    }
}
