package dev.platform.scheduler.demo;

import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.platform.scheduler.testsupport.Admissions.nodePools;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's "Try it" on the demo, its curl commands run by bash as a reader pastes them (the scheduler's and the
 * simulator's ports put in for 8080 and 8081, the tokens from the demo's logins file): a slice under
 * high-jax-trillium fails and a free pool takes over, no victim; once the quota is 64 chips low-jax-trillium runs on
 * the pools left, and a second failure under high-jax-trillium preempts it (reason Hotswap). What each comment of the
 * README promises is checked after its command.
 */
class ReadmeHotswapIT {

    private static final Path README = Path.of("..", "README.md");
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();
    private static final String WORKLOADS = "/api/v1/namespaces/default/workloads/";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path workDir;

    @Test
    void theReadmesHotswapsUseAFreePoolFirstThenPreemptTheLowerPriorityJobSet() throws Exception {
        try (PlatformProcess scheduler = PlatformProcess.start(workDir, "scheduler",
                List.of("--platform.demo.enabled=true")).awaitUp(Duration.ofMinutes(5));
             PlatformProcess agent = PlatformProcess.startSimulatedAgent(workDir, "agent", scheduler.url(), "sim",
                     List.of("--platform.agent.simulation-data-dir=" + workDir.resolve("simulated-cluster")))
                     .awaitUp(Duration.ofMinutes(5))) {
            PlatformClient api = scheduler.client();
            assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json()
                    .at("/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota").asString())
                    .as("the demo switch applies the seed's configuration").isEqualTo("32");
            assertThat(api.get("/", "text/html").body()).contains("tpu-training-cq");
            Map<String, String> tokens = demoTokens();
            JsonNode high = await().atMost(Duration.ofSeconds(120)).until(() -> api.get(WORKLOADS + "high-jax-trillium")
                    .json(), w -> "Running".equals(w.get("state").asString()));
            assertThat(nodePools(high)).as("the README's nodepools comment")
                    .containsExactly("sim-v6e-4x4-0", "sim-v6e-4x4-1");

            List<String> commands = tryItCommands();
            assertThat(commands).as("the README's hotswap steps").anyMatch(c -> c.startsWith("sed "))
                    .anyMatch(c -> c.contains("sim-v6e-4x4-1/fail"));
            for (String command : commands) {
                String output = run(command.replace("localhost:8080", "localhost:" + scheduler.port())
                        .replace("localhost:8081", "localhost:" + agent.port()), tokens);
                if (command.contains("sim-v6e-4x4-0/fail")) {
                    JsonNode moved = await().atMost(Duration.ofSeconds(60)).until(
                            () -> api.get(WORKLOADS + "high-jax-trillium").json(),
                            w -> "Running".equals(w.get("state").asString()) && !nodePools(w).contains("sim-v6e-4x4-0"));
                    assertThat(nodePools(moved)).containsExactlyInAnyOrder("sim-v6e-4x4-1", "sim-v6e-4x4-2");
                    await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/api/v1/hotswaps").json().at("/items/0"),
                            e -> "Recovered".equals(e.path("outcome").asString()));
                } else if (command.contains("/api/v1/hotswaps")) {
                    JsonNode event = JSON.readTree(output).at("/items/0");
                    assertThat(event.get("victims").isEmpty()).as("a free pool first: " + output).isTrue();
                    assertThat(event.get("replacementPools").valueStream().map(JsonNode::asString))
                            .containsExactlyInAnyOrder("sim-v6e-4x4-1", "sim-v6e-4x4-2");
                } else if (command.contains("sim-v6e-4x4-0/recover")) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> DemoRestartIT.health(api, "sim-v6e-4x4-0"), "Healthy"::equals);
                } else if (command.startsWith("sed ")) {
                    assertThat(JSON.readTree(output).get("results").valueStream().map(r -> r.get("action").asString()))
                            .as(output).contains("updated");
                    JsonNode low = await().atMost(Duration.ofSeconds(60)).until(
                            () -> api.get(WORKLOADS + "low-jax-trillium").json(),
                            w -> "Running".equals(w.get("state").asString()));
                    assertThat(nodePools(low)).containsExactlyInAnyOrder("sim-v6e-4x4-0", "sim-v6e-4x4-3");
                } else if (command.contains("sim-v6e-4x4-1/fail")) {
                    JsonNode waiting = await().atMost(Duration.ofSeconds(60)).until(
                            () -> api.get(WORKLOADS + "low-jax-trillium").json(),
                            w -> "WaitingForNodePool".equals(w.at("/pendingReason/code").asString()));
                    assertThat(waiting.get("state").asString()).isEqualTo("Pending");
                    JsonNode restarted = await().atMost(Duration.ofSeconds(60)).until(
                            () -> api.get(WORKLOADS + "high-jax-trillium").json(),
                            w -> "Running".equals(w.get("state").asString()) && !nodePools(w).contains("sim-v6e-4x4-1"));
                    assertThat(nodePools(restarted)).contains("sim-v6e-4x4-2");
                } else if (command.contains("preemptions?reason=Hotswap")) {
                    JsonNode preemption = JSON.readTree(output).at("/items/0");
                    assertThat(preemption.at("/victim/name").asString()).as(output).isEqualTo("low-jax-trillium");
                    assertThat(preemption.at("/preemptor/name").asString()).isEqualTo("high-jax-trillium");
                }
            }
            JsonNode events = api.get("/api/v1/hotswaps").json().get("items");
            assertThat(events.valueStream().map(e -> e.get("victims").size())).as("newest first")
                    .containsExactly(1, 0);
        }
    }

    /**
     * The curl (and sed) commands of the README's "Try it" block up to the simulator's provisioning requests: the
     * reads, the two failures, the repair and the quota raised.
     */
    private static List<String> tryItCommands() throws IOException {
        List<String> lines = Files.readAllLines(README);
        int start = lines.indexOf("Try it:");
        assertThat(start).as("README.md has a Try it block").isNotNegative();
        List<String> commands = new ArrayList<>();
        for (String line : lines.subList(start, lines.size())) {
            if (line.contains("/simulation/provisioningrequests")) {
                return commands;
            }
            if (line.startsWith("curl ") || line.startsWith("sed ")) {
                commands.add(line);
            }
        }
        throw new AssertionError("README.md's Try it block does not reach the provisioning requests");
    }

    /** The command as bash runs it from the repository (where the README's paths start), its standard output. */
    private String run(String command, Map<String, String> tokens) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", command).directory(REPOSITORY.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(workDir.resolve("curl.err").toFile()));
        builder.environment().putAll(tokens);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(command).isZero();
        return output;
    }

    /** The {@code export TOKEN=…} and {@code export ADMIN_TOKEN=…} lines of the demo's logins file. */
    private Map<String, String> demoTokens() throws IOException {
        Path logins = workDir.resolve(".platform-data").resolve("demo-logins.txt");
        Map<String, String> tokens = Files.readAllLines(logins).stream().map(String::trim)
                .filter(l -> l.startsWith("export ")).map(l -> l.substring("export ".length()).split("=", 2))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1].split("\\s+")[0]));
        assertThat(tokens).as("the export lines of " + logins).containsKeys("TOKEN", "ADMIN_TOKEN");
        return tokens;
    }
}
