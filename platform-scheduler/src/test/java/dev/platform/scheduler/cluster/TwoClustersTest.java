package dev.platform.scheduler.cluster;

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
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Placement spans every connected cluster, and a JobSet lives in one: two clusters of two 4x4
 * pools each, the seed's two JobSets (nominal 64) one per cluster. When high's cluster loses a
 * pool, the only room is low's cluster: low is preempted and high moves there, its JobSet deleted
 * where it was. When the pool heals, low comes back in the first cluster and its suspended JobSet
 * in the second is deleted. The test plays both agents over the protocol.
 */
class TwoClustersTest extends PlatformApplicationTest {

    @Test
    void aHotswapMovesTheJobSetToTheClusterWithRoomAndCleansUpWhereItWas() {
        AgentCalls agents = new AgentCalls(port);
        agents.connectTwoClusters();
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);

        JsonNode high = awaitPlaced("high-jax-trillium");
        JsonNode low = awaitPlaced("low-jax-trillium");
        assertThat(Admissions.nodePools(high)).containsExactly("east-0", "east-1");
        assertThat(Admissions.nodePools(low)).containsExactly("west-0", "west-1");
        assertThat(commands("high-jax-trillium")).containsExactly("START@prod-1");
        assertThat(commands("low-jax-trillium")).containsExactly("START@prod-2");
        agents.report("prod-1", delta("prod-1", "agent-1", 2, List.of(), List.of(), List.of(AgentCalls.workload(
                high.get("uid").asString(), "high-jax-trillium", WorkloadPhase.RUNNING, List.of("east-0", "east-1")))));
        agents.report("prod-2", delta("prod-2", "agent-2", 2, List.of(), List.of(), List.of(AgentCalls.workload(
                low.get("uid").asString(), "low-jax-trillium", WorkloadPhase.RUNNING, List.of("west-0", "west-1")))));

        agents.report("prod-1", delta("prod-1", "agent-1", 3, List.of(tpuPool("east-1", 4, HealthState.UNHEALTHY,
                NodeHealthReason.NOT_READY)), List.of(), List.of()));

        JsonNode moved = await().atMost(Duration.ofSeconds(30)).until(() -> workload("high-jax-trillium"),
                w -> Admissions.nodePools(w).contains("west-0"));
        assertThat(Admissions.nodePools(moved)).containsExactly("west-0", "west-1");
        assertThat(commands("high-jax-trillium")).containsExactly("START@prod-1", "DELETE@prod-1", "RESTART@prod-2");
        assertThat(commands("low-jax-trillium")).containsExactly("START@prod-2", "STOP@prod-2");
        // the requeued victim gets its reason at the loop's next turn, not in the hotswap's transaction
        await().atMost(Duration.ofSeconds(10)).until(
                () -> workload("low-jax-trillium").at("/pendingReason/code").asString(), "WaitingForNodePool"::equals);

        agents.report("prod-1", delta("prod-1", "agent-1", 4, List.of(tpuPool("east-1", 4, HealthState.HEALTHY)),
                List.of(), List.of()));

        JsonNode back = awaitPlaced("low-jax-trillium");
        assertThat(Admissions.nodePools(back)).containsExactly("east-0", "east-1");
        assertThat(commands("low-jax-trillium")).containsExactly("START@prod-2", "STOP@prod-2", "DELETE@prod-2",
                "START@prod-1");
    }

    private JsonNode awaitPlaced(String name) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> workload(name),
                w -> "Admitted".equals(w.get("state").asString()) && !Admissions.nodePools(w).isEmpty());
    }

    /** The agent commands for a workload, in order, as {@code TYPE@cluster}. */
    private List<String> commands(String workload) {
        return jdbc.sql("""
                        SELECT c.type || '@' || c.cluster FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                        WHERE w.name = ? ORDER BY c.seq""").param(workload).query(String.class).list();
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
