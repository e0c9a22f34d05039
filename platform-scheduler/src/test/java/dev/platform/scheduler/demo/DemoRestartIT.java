package dev.platform.scheduler.demo;

import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's demo killed and started again (a {@code kill -9} of both processes, the worst of a Ctrl-C): the
 * simulated cluster, kept where the README's command says, still runs the admitted JobSet, so the platform neither
 * evicts nor restarts it, and a pool failed before the crash is still failed.
 */
class DemoRestartIT {

    private static final Path README = Path.of("..", "README.md");
    private static final String HIGH = "/api/v1/namespaces/default/workloads/high-jax-trillium";

    @TempDir
    Path workDir;

    @Test
    void aRestartedDemoKeepsItsRunningJobAndItsFailedPool() throws Exception {
        List<String> pools;
        String free;
        try (PlatformProcess scheduler = PlatformProcess.start(workDir, "scheduler-1",
                List.of("--platform.demo.enabled=true")).awaitUp(Duration.ofMinutes(5));
             PlatformProcess agent = startAgent(scheduler, "agent-1")) {
            JsonNode running = await().atMost(Duration.ofSeconds(120)).until(() -> scheduler.client().get(HIGH).json(),
                    w -> "Running".equals(w.get("state").asString()));
            List<String> placed = nodePools(running);
            free = List.of("sim-v6e-4x4-0", "sim-v6e-4x4-1", "sim-v6e-4x4-2", "sim-v6e-4x4-3").stream()
                    .filter(pool -> !placed.contains(pool)).findFirst().orElseThrow();
            assertThat(agent.client().post("/simulation/nodepools/" + free + "/fail", null, "").status()).isEqualTo(204);
            String failed = free;
            await().atMost(Duration.ofSeconds(30)).until(() -> health(scheduler.client(), failed), "Unhealthy"::equals);
            pools = placed;

            agent.kill();
            scheduler.kill();
        }
        Instant restarted = Instant.now();
        PlatformProcess schedulerAgain = PlatformProcess.start(workDir, "scheduler-2",
                List.of("--platform.demo.enabled=true")).awaitUp(Duration.ofMinutes(5));
        PlatformProcess agentAgain = startAgent(schedulerAgain, "agent-2");
        try (schedulerAgain; agentAgain) {
            PlatformClient api = schedulerAgain.client();
            await().atMost(Duration.ofSeconds(120)).ignoreExceptions().until(() -> {
                JsonNode cluster = api.get("/api/v1/clusters/sim").json();
                return !cluster.get("stale").asBoolean()
                        && Instant.parse(cluster.get("lastReportAt").asString()).isAfter(restarted);
            });

            List<String> placed = pools;
            await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15)).until(() -> api.get(HIGH).json(),
                    w -> "Running".equals(w.get("state").asString()) && nodePools(w).equals(placed));
            assertThat(api.get(HIGH + "/events").json().get("items").valueStream()
                    .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()))
                    .as("nothing evicted or requeued the running JobSet").noneMatch(e -> e.startsWith("Evicted/")
                            || e.startsWith("Requeued/") || e.contains("JobSetMissing"));
            assertThat(health(api, free)).isEqualTo("Unhealthy");
            assertThat(agentAgain.client().get("/simulation/jobsets").json().valueStream()
                    .filter(j -> j.get("name").asString().equals("high-jax-trillium"))
                    .map(j -> j.get("activePods").asInt())).containsExactly(8);
        }
    }

    /** The agent as the README's command starts it: the simulated cluster kept in the data directory it names. */
    private PlatformProcess startAgent(PlatformProcess scheduler, String name) throws IOException {
        return PlatformProcess.startSimulatedAgent(workDir, name, scheduler.url(), "sim", readmeAgentDataDir())
                .awaitUp(Duration.ofMinutes(5));
    }

    private static List<String> readmeAgentDataDir() throws IOException {
        String command = Files.readAllLines(README).stream().filter(line -> line.contains("platform-agent.jar"))
                .findFirst().orElseThrow(() -> new AssertionError("README.md starts no agent"));
        List<String> dataDir = Arrays.stream(command.split("\\s+"))
                .filter(word -> word.startsWith("--platform.agent.simulation-data-dir=")).toList();
        assertThat(dataDir).as("the README's agent keeps its simulated cluster: " + command).hasSize(1);
        return dataDir;
    }

    /** A pool's health as the scheduler reports it, {@code absent} for a pool it does not know. */
    static String health(PlatformClient api, String pool) {
        JsonNode pools = api.get("/api/v1/clusters/sim/nodepools").json();
        JsonNode items = pools.has("items") ? pools.get("items") : pools;
        return items.valueStream().filter(p -> pool.equals(p.get("name").asString())).map(p -> p.get("health").asString())
                .findFirst().orElse("absent");
    }
}
