package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.cluster.AgentCalls;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.EvictionProgress;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.scheduler.testsupport.Admissions;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.platform.scheduler.cluster.AgentCalls.delta;
import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hotswap whose victim's pods a PodDisruptionBudget will not let go (the Eviction API answers
 * 429; the agent retries with backoff and reports the refusals as progress): the hotswap waits,
 * and its status says for what, until the evictions are done. The test plays the agent.
 */
class BlockedEvictionTest extends PlatformApplicationTest {

    @Test
    void aHotswapWaitingForBlockedEvictionsSaysSo() {
        AgentCalls agent = new AgentCalls(port);
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 4, HealthState.HEALTHY),
                tpuPool("tpu-1", 4, HealthState.HEALTHY), tpuPool("tpu-2", 4, HealthState.HEALTHY),
                tpuPool("tpu-3", 4, HealthState.HEALTHY)), List.of()));
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        JsonNode high = awaitPlaced("high-jax-trillium");
        JsonNode low = awaitPlaced("low-jax-trillium");
        List<String> highPools = Admissions.nodePools(high);
        agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(), List.of(
                AgentCalls.workload(high.get("uid").asString(), "high-jax-trillium", WorkloadPhase.RUNNING, highPools),
                AgentCalls.workload(low.get("uid").asString(), "low-jax-trillium", WorkloadPhase.RUNNING,
                        Admissions.nodePools(low)))));

        agent.report("prod-1", delta("prod-1", "agent-a", 3, List.of(tpuPool(highPools.get(0), 4,
                HealthState.UNHEALTHY, NodeHealthReason.NOT_READY)), List.of(), List.of()));
        AgentCommand stop = await().atMost(Duration.ofSeconds(30)).until(() -> commands(agent).stream()
                .filter(c -> c.type().name().equals("STOP")).findFirst().orElse(null), c -> c != null);
        JsonNode waiting = hotswap();
        assertThat(waiting.get("outcome").asString()).isEqualTo("InProgress");
        assertThat(waiting.get("waitingFor").asString())
                .isEqualTo("eviction of default/low-jax-trillium: not reported by the agent yet");

        agent.result("prod-1", new CommandResult(stop.id(), CommandStatus.RETRYING,
                "8 eviction(s) refused by a PodDisruptionBudget; retrying",
                new EvictionProgress(0, 8, List.of("low-jax-trillium-slice-0-0")), "agent-a", Instant.now()));

        assertThat(hotswap().get("waitingFor").asString()).isEqualTo("eviction of default/low-jax-trillium: 8"
                + " eviction(s) refused by a PodDisruptionBudget; retrying [evicted 0 pod(s), 8 PodDisruptionBudget"
                + " rejection(s), blocked: [low-jax-trillium-slice-0-0]]");
        assertThat(hotswap().get("evictionsDoneAt").isNull()).isTrue();

        agent.result("prod-1", new CommandResult(stop.id(), CommandStatus.SUCCEEDED, "JobSet suspended, 8 pod(s) evicted",
                new EvictionProgress(8, 11, List.of()), "agent-a", Instant.now()));

        JsonNode evicted = await().atMost(Duration.ofSeconds(10)).until(this::hotswap,
                e -> !e.get("evictionsDoneAt").isNull());
        assertThat(evicted.get("waitingFor").isNull()).isTrue();
    }

    private List<AgentCommand> commands(AgentCalls agent) {
        return AgentCalls.JSON.readValue(agent.poll("prod-1", "waitSeconds=0").body(),
                new TypeReference<List<AgentCommand>>() {
                });
    }

    private JsonNode hotswap() {
        return api.get("/api/v1/hotswaps").json().at("/items/0");
    }

    private JsonNode awaitPlaced(String name) {
        return await().atMost(Duration.ofSeconds(30)).until(
                () -> api.get("/api/v1/namespaces/default/workloads/" + name).json(),
                w -> "Admitted".equals(w.get("state").asString()) && !Admissions.nodePools(w).isEmpty());
    }
}
