package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.Admissions;
import dev.platform.scheduler.testsupport.KubernetesAgent;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kubernetes agent cut off from the scheduler by a network partition (a TCP relay the test
 * cuts) while the seed's two JobSets run. Cut off past the staleness window, its pools are Unknown,
 * not Unhealthy, and nothing is hotswapped off them although a node failed meanwhile; what was
 * queued for the cluster runs once when it is back, and the hotswap then happens. A RESTART that
 * expired during a cut is refused by the agent, reported, issued again and run once.
 */
class AgentCutOffTest extends PlatformApplicationTest {

    private static final Duration PATIENCE = Duration.ofSeconds(60);
    /** The shared application's hotswap grace (5 s) and a margin. */
    private static final Duration GRACE_AND_MARGIN = Duration.ofSeconds(8);

    private Partition partition;
    private KubernetesAgent cluster;
    private List<String> highPools;

    @BeforeEach
    void bothSeedJobSetsRunBehindAPartition() throws IOException {
        partition = new Partition(port);
        cluster = KubernetesAgent.start(partition.port(), api);
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        highPools = Admissions.nodePools(awaitState("high-jax-trillium", "Running"));
        awaitState("low-jax-trillium", "Running");
    }

    @AfterEach
    void stop() throws IOException {
        cluster.close();
        partition.close();
    }

    @Test
    void aCutOffClustersPoolsAreUnknownNothingIsEvictedAndWhatWasQueuedRunsOnceOnReturn() {
        partition.cut();
        // the staleness window (30 s) passing, without waiting for it
        jdbc.sql("UPDATE cluster SET last_report_at = now() - interval '1 minute'").update();
        loop.wake();
        await().atMost(PATIENCE).until(() -> health().values().stream().allMatch("Unknown"::equals));
        assertThat(api.get("/api/v1/clusters/" + KubernetesAgent.CLUSTER).json().get("stale").asBoolean()).isTrue();

        String failing = highPools.get(1);
        cluster.setReady(cluster.nodesOf(failing).get(0), false);
        assertThat(api.delete("/api/v1/namespaces/default/workloads/low-jax-trillium").status()).isBetween(200, 299);

        await().during(GRACE_AND_MARGIN).atMost(GRACE_AND_MARGIN.plusSeconds(10)).until(() ->
                api.get("/api/v1/hotswaps").json().get("items").isEmpty()
                        && api.get("/api/v1/preemptions").json().get("items").isEmpty()
                        && "Running".equals(workload("high-jax-trillium").get("state").asString()));
        assertThat(health()).as("Unknown, not Unhealthy: the scheduler does not know").containsEntry(failing, "Unknown");
        // a long poll the scheduler held when the link went may have taken the DELETE into the void: Delivered
        assertThat(commands()).hasSize(3).startsWith("START Succeeded", "START Succeeded")
                .last().satisfies(delete -> assertThat(unfinished(delete) && delete.startsWith("DELETE")).isTrue());

        partition.heal();

        JsonNode event = await().atMost(PATIENCE).until(() -> api.get("/api/v1/hotswaps").json().get("items"),
                items -> items.size() == 1 && "Recovered".equals(items.get(0).get("outcome").asString())).get(0);
        assertThat(event.get("nodePool").asString()).isEqualTo(failing);
        assertThat(event.get("victims")).as("low was cancelled: its pools are free").isEmpty();
        assertThat(await().atMost(PATIENCE).until(this::commands, c -> c.stream().noneMatch(this::unfinished)))
                .containsExactly("START Succeeded", "START Succeeded", "DELETE Succeeded", "RESTART Succeeded");
        assertThat(cluster.jobSet("low-jax-trillium")).isEmpty();
    }

    @Test
    void aRestartThatExpiredDuringACutIsRefusedReportedIssuedAgainAndRunOnce() {
        String failing = highPools.get(1);
        cluster.setReady(cluster.nodesOf(failing).get(0), false);
        await().atMost(PATIENCE).until(() -> health().get(failing), "Unhealthy"::equals);
        partition.cut();
        await().atMost(PATIENCE).until(() -> commands().stream().anyMatch(c -> c.startsWith("RESTART") && unfinished(c)));
        // the partition outlasting the RESTART's two minutes, without waiting for them
        jdbc.sql("UPDATE agent_command SET expires_at = created_at + interval '1 millisecond' WHERE type = 'RESTART'").update();

        partition.heal();

        await().atMost(PATIENCE).until(() -> api.get("/api/v1/hotswaps").json().get("items").get(0).get("outcome")
                .asString(), "Recovered"::equals);
        assertThat(await().atMost(PATIENCE).until(this::commands, c -> c.stream().noneMatch(this::unfinished)))
                .containsExactly("START Succeeded", "START Succeeded", "STOP Succeeded", "RESTART Refused",
                        "RESTART Succeeded");
        assertThat(jdbc.sql("SELECT result_message FROM agent_command WHERE state = 'Refused'").query(String.class)
                .single()).contains("expired");
        assertThat(jdbc.sql("SELECT restarts FROM workload WHERE name = 'high-jax-trillium'").query(Integer.class)
                .single()).isEqualTo(1);
    }

    private boolean unfinished(String command) {
        return command.endsWith("Pending") || command.endsWith("Delivered");
    }

    /** Each agent command as "TYPE state", in the order queued. */
    private List<String> commands() {
        return jdbc.sql("SELECT type || ' ' || state FROM agent_command ORDER BY seq").query(String.class).list();
    }

    private Map<String, String> health() {
        return KubernetesAgent.poolHealth(api);
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(PATIENCE).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
