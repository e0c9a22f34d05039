package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.cluster.AgentCalls;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.scheduler.testsupport.Admissions;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;

import static dev.platform.scheduler.cluster.AgentCalls.delta;
import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pool Degraded for scheduled maintenance under a running workload is not a failure: past the
 * grace period nothing is hotswapped, nobody preempted, the workload keeps its pools; but no new
 * workload is placed on a Degraded pool. The test plays the agent over the protocol.
 */
class MaintenanceIsNoHotswapTest extends PlatformApplicationTest {

    private static final Duration GRACE_AND_MARGIN = Duration.ofSeconds(8);

    @Test
    void aPoolUnderMaintenanceKeepsItsWorkloadAndTakesNoNewOne() {
        AgentCalls agent = new AgentCalls(port);
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 4, HealthState.HEALTHY),
                tpuPool("tpu-1", 4, HealthState.HEALTHY), tpuPool("tpu-2", 4, HealthState.HEALTHY),
                tpuPool("tpu-3", 4, HealthState.HEALTHY)), List.of()));
        String seed = SeedManifests.without("seed-kueue-and-hotswap.yaml", "low-jax-trillium")
                .replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        JsonNode high = await().atMost(Duration.ofSeconds(20)).until(() -> workload("high-jax-trillium"),
                w -> "Admitted".equals(w.get("state").asString()) && !Admissions.nodePools(w).isEmpty());
        List<String> pools = Admissions.nodePools(high);
        agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(), List.of(AgentCalls.workload(
                high.get("uid").asString(), "high-jax-trillium", WorkloadPhase.RUNNING, pools))));

        agent.report("prod-1", delta("prod-1", "agent-a", 3, List.of(tpuPool(pools.get(0), 4, HealthState.DEGRADED,
                NodeHealthReason.MAINTENANCE_SCHEDULED)), List.of(), List.of()));

        await().during(GRACE_AND_MARGIN).atMost(GRACE_AND_MARGIN.plusSeconds(5))
                .until(() -> api.get("/api/v1/hotswaps").json().get("items").isEmpty());
        JsonNode after = workload("high-jax-trillium");
        assertThat(after.get("state").asString()).isEqualTo("Running");
        assertThat(Admissions.nodePools(after)).containsExactlyElementsOf(pools);
        assertThat(api.get("/api/v1/preemptions").json().get("items")).isEmpty();

        // A second JobSet of the same shape fits the two Healthy free pools only: not the Degraded one.
        String second = SeedManifests.document("seed-kueue-and-hotswap.yaml", "low-jax-trillium");
        assertThat(api.postYaml("/api/v1/manifests", second).status()).isEqualTo(200);
        JsonNode low = await().atMost(Duration.ofSeconds(20)).until(() -> workload("low-jax-trillium"),
                w -> "Admitted".equals(w.get("state").asString()));
        assertThat(Admissions.nodePools(low)).hasSize(2).doesNotContainAnyElementsOf(pools);
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
