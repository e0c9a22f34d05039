package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.JsonNode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seed's Hotswap story end to end with two real processes: the scheduler and the agent on
 * its simulated TPU cluster (4 pools of 4x4 v6e), faults injected through the agent's HTTP port.
 * ClusterQueue of 64 chips (the seed's config with nominal 64): both JobSets run, two pools each;
 * a pool under high-jax-trillium fails; low-jax-trillium is preempted (reason Hotswap), high
 * restarts on the freed pools; low waits for a node pool; when the pool recovers low runs again.
 */
class SeedHotswapIT {


    @TempDir
    Path workDir;

    @Test
    void highPriorityJobSetComesBackOnTheLowPriorityPoolsAndLowReturnsWhenThePoolHeals() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("seed_hotswap");
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
        List<String> args = new ArrayList<>(PlatformProcess.database(db));
        args.add("--platform.hotswap.grace=2s");
        try (PlatformProcess scheduler = PlatformProcess.start(workDir, "scheduler", args).awaitUp();
             PlatformProcess agent = PlatformProcess.startSimulatedAgent(workDir, scheduler.url(), "sim").awaitUp()) {
            PlatformClient api = scheduler.client();
            // the cluster is a 404 problem answer until its agent first reports
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() -> healthyPools(api) == 5);

            String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
            assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
            JsonNode high = awaitState(api, "high-jax-trillium", "Running");
            JsonNode low = awaitState(api, "low-jax-trillium", "Running");
            List<String> highPools = nodePools(high);
            List<String> lowPools = nodePools(low);
            assertThat(highPools).hasSize(2).doesNotContainAnyElementsOf(lowPools);
            assertThat(lowPools).hasSize(2);

            String failing = highPools.get(1);
            assertThat(agent.client().post("/simulation/nodepools/" + failing + "/fail", null, "").status()).isEqualTo(204);

            JsonNode preemption = await().atMost(Duration.ofSeconds(60)).until(
                    () -> api.get("/api/v1/preemptions?reason=Hotswap").json().get("items"), items -> items.size() == 1)
                    .get(0);
            assertThat(preemption.at("/victim/name").asString()).isEqualTo("low-jax-trillium");
            assertThat(preemption.at("/preemptor/name").asString()).isEqualTo("high-jax-trillium");
            assertThat(preemption.get("message").asString()).contains("due to hotswap").contains(failing);

            JsonNode waiting = await().atMost(Duration.ofSeconds(60)).until(
                    () -> workload(api, "low-jax-trillium"), w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));
            assertThat(waiting.get("state").asString()).isEqualTo("Pending");

            JsonNode restarted = await().atMost(Duration.ofSeconds(60)).until(() -> workload(api, "high-jax-trillium"),
                    w -> "Running".equals(w.get("state").asString()) && !nodePools(w).contains(failing));
            assertThat(nodePools(restarted)).containsExactlyInAnyOrder(highPools.get(0), lowPools.get(0));
            assertThat(jdbc.sql("SELECT restarts FROM workload WHERE name = 'high-jax-trillium'").query(Integer.class)
                    .single()).isEqualTo(1);

            JsonNode event = await().atMost(Duration.ofSeconds(60)).until(
                    () -> api.get("/api/v1/hotswaps").json().get("items").get(0), e -> !e.get("runningAt").isNull());
            assertThat(event.get("nodePool").asString()).isEqualTo(failing);
            assertThat(event.get("outcome").asString()).isEqualTo("Recovered");
            assertThat(event.at("/disrupted/name").asString()).isEqualTo("high-jax-trillium");
            assertThat(event.get("victims").valueStream().map(v -> v.get("name").asString())).containsExactly("low-jax-trillium");
            assertThat(event.get("replacementPools").valueStream().map(JsonNode::asString))
                    .containsExactlyInAnyOrder(highPools.get(0), lowPools.get(0));
            for (String phase : List.of("detectedAt", "decidedAt", "evictionsDoneAt", "runningAt")) {
                assertThat(event.get(phase).isNull()).as(phase).isFalse();
            }
            System.out.printf("hotswap MTTR %.3f s (detected %s, decided %s, evicted %s, running %s)%n",
                    event.get("mttrSeconds").asDouble(), event.get("detectedAt").asString(),
                    event.get("decidedAt").asString(), event.get("evictionsDoneAt").asString(),
                    event.get("runningAt").asString());
            assertThat(api.get("/actuator/prometheus", "text/plain").body())
                    .contains("platform_hotswap_recovery_seconds_bucket").contains("phase=\"running\"");

            assertThat(agent.client().post("/simulation/nodepools/" + failing + "/recover", null, "").status())
                    .isEqualTo(204);
            JsonNode back = awaitState(api, "low-jax-trillium", "Running");
            assertThat(nodePools(back)).contains(failing).containsExactlyInAnyOrder(failing, lowPools.get(1));

            // What the agent was told, and did: low started, stopped, started again; high started, restarted.
            await().atMost(Duration.ofSeconds(60)).until(() -> commands(jdbc, "low-jax-trillium"),
                    c -> c.equals(List.of("START/Succeeded", "STOP/Succeeded", "START/Succeeded")));
            assertThat(commands(jdbc, "high-jax-trillium")).containsExactly("START/Succeeded", "RESTART/Succeeded");
            assertThat(conditions(workload(api, "high-jax-trillium"))).contains("Hotswap/NodeFailure");
            // admitted again: Evicted and Preempted turned False (Kueue's reset when quota is reserved), saying why
            assertThat(conditions(back)).contains("Evicted/QuotaReserved", "Preempted/QuotaReserved", "Admitted/Admitted");
            assertThat(back.get("conditions").valueStream().filter(c -> "Preempted".equals(c.get("type").asString()))
                    .map(c -> c.get("message").asString())).singleElement().asString().startsWith("Previously: ");
        }
    }

    private static List<String> commands(JdbcClient jdbc, String workload) {
        return jdbc.sql("""
                        SELECT c.type || '/' || c.state FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                        WHERE w.name = ? ORDER BY c.seq""").param(workload).query(String.class).list();
    }

    private static List<String> conditions(JsonNode workload) {
        return workload.get("conditions").valueStream()
                .map(c -> c.get("type").asString() + "/" + c.get("reason").asString()).toList();
    }

    private static long healthyPools(PlatformClient api) {
        JsonNode pools = api.get("/api/v1/clusters/sim/nodepools").json();
        JsonNode items = pools.has("items") ? pools.get("items") : pools;
        return items.valueStream().filter(p -> "Healthy".equals(p.get("health").asString())).count();
    }

    private static JsonNode awaitState(PlatformClient api, String name, String state) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> workload(api, name),
                w -> state.equals(w.get("state").asString()));
    }

    private static JsonNode workload(PlatformClient api, String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
