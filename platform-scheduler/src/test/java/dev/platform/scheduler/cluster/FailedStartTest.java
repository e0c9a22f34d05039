package dev.platform.scheduler.cluster;

import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.HealthState;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A START its agent could not carry out (the API server refused the JobSet) fails the workload
 * with the agent's reason and gives its quota back, instead of leaving it admitted where nothing
 * runs. The test plays the agent over the protocol.
 */
class FailedStartTest extends PlatformApplicationTest {

    @Test
    void aRefusedJobSetFailsTheWorkloadWithTheAgentsReasonAndReleasesItsQuota() {
        AgentCalls agent = new AgentCalls(port);
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 4, HealthState.HEALTHY),
                tpuPool("tpu-1", 4, HealthState.HEALTHY)), List.of()));
        String highOnly = SeedManifests.without("seed-kueue-and-hotswap.yaml", "low-jax-trillium");
        assertThat(api.postYaml("/api/v1/manifests", highOnly).status()).isEqualTo(200);
        String uid = await().atMost(Duration.ofSeconds(20)).until(() -> workload("high-jax-trillium"),
                w -> "Admitted".equals(w.get("state").asString())).get("uid").asString();
        long start = jdbc.sql("SELECT seq FROM agent_command WHERE workload_uid = ?::uuid AND type = 'START'")
                .param(uid).query(Long.class).single();

        agent.result("prod-1", new CommandResult(start, CommandStatus.FAILED,
                "namespaces \"default\" not found", null, "agent-a", Instant.now()));

        JsonNode failed = await().atMost(Duration.ofSeconds(10)).until(() -> workload("high-jax-trillium"),
                w -> "Failed".equals(w.get("state").asString()));
        JsonNode finished = failed.get("conditions").valueStream()
                .filter(c -> c.get("type").asString().equals("Finished")).findFirst().orElseThrow();
        assertThat(finished.get("reason").asString()).isEqualTo("StartFailed");
        assertThat(finished.get("message").asString()).contains("prod-1").contains("namespaces \"default\" not found");
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json().at("/usage/0/used").asString()).isEqualTo("0");
        assertThat(jdbc.sql("SELECT type FROM agent_command WHERE workload_uid = ?::uuid ORDER BY seq").param(uid)
                .query(String.class).list()).containsExactly("START", "DELETE");
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
