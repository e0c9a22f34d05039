package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.Admissions;
import dev.platform.scheduler.testsupport.KubernetesAgent;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The agent's clock five minutes ahead of the scheduler's, or behind: the seed's hotswap on the
 * Kubernetes agent goes exactly as with synchronized clocks. Its RESTART expires two minutes after
 * the decision by the scheduler's clock; an agent five minutes ahead used to refuse it as expired
 * again and again, so the hotswap never finished.
 */
class ClockSkewTest extends PlatformApplicationTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private KubernetesAgent cluster;

    @AfterEach
    void stopAgent() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "agent clock {0} minutes off")
    @ValueSource(ints = {5, -5})
    void aSkewedAgentClockChangesNothing(int minutes) {
        cluster = KubernetesAgent.start(port, api, Clock.offset(Clock.systemUTC(), Duration.ofMinutes(minutes)));
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        JsonNode high = awaitState("high-jax-trillium", "Running");
        awaitState("low-jax-trillium", "Running");
        List<String> highPools = Admissions.nodePools(high);

        String failing = highPools.get(1);
        cluster.setReady(cluster.nodesOf(failing).get(0), false);

        JsonNode event = await().atMost(PATIENCE).until(() -> api.get("/api/v1/hotswaps").json().get("items"),
                items -> items.size() == 1 && !items.get(0).get("runningAt").isNull()).get(0);
        assertThat(event.get("outcome").asString()).isEqualTo("Recovered");
        assertThat(await().atMost(PATIENCE).until(this::commands, c -> c.size() == 4
                && c.stream().noneMatch(command -> command.endsWith("Pending") || command.endsWith("Delivered"))))
                .containsExactly("START high-jax-trillium Succeeded", "START low-jax-trillium Succeeded",
                        "STOP low-jax-trillium Succeeded", "RESTART high-jax-trillium Succeeded");
        assertThat(api.get("/api/v1/clusters/" + KubernetesAgent.CLUSTER).json().get("stale").asBoolean()).isFalse();
    }

    /** Each agent command as "TYPE jobset state", in the order queued; the first two in name order. */
    private List<String> commands() {
        List<String> commands = jdbc.sql("SELECT type || ' ' || name || ' ' || state FROM agent_command ORDER BY seq")
                .query(String.class).list();
        if (commands.size() < 2) {
            return commands;
        }
        List<String> starts = commands.subList(0, 2).stream().sorted().collect(Collectors.toList());
        starts.addAll(commands.subList(2, commands.size()));
        return starts;
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(PATIENCE).until(() -> api.get("/api/v1/namespaces/default/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
