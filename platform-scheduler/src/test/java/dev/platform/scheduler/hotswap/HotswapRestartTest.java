package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.cluster.AgentCalls;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.testsupport.Admissions;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.cluster.AgentCalls.delta;
import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hotswap RESTART as its agent sees it, the test playing the agent over the protocol: three 4x4
 * pools, the seed's high-priority JobSet on two of them, one of which fails. The replacement runs
 * only when pods run on the new pools; a RESTART refused as expired (the agent was away too long)
 * is issued again while the workload still holds that placement, and not once it has moved on.
 */
class HotswapRestartTest extends PlatformApplicationTest {

    private AgentCalls agent;
    private String uid;
    private List<String> oldPools;
    private long restart;

    @BeforeEach
    void aHotswapRestartIsQueued() {
        agent = new AgentCalls(port);
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 4, HealthState.HEALTHY),
                tpuPool("tpu-1", 4, HealthState.HEALTHY), tpuPool("tpu-2", 4, HealthState.HEALTHY)), List.of()));
        String withoutLow = SeedManifests.without("seed-kueue-and-hotswap.yaml", "low-jax-trillium");
        assertThat(api.postYaml("/api/v1/manifests", withoutLow).status()).isEqualTo(200);
        uid = await().atMost(Duration.ofSeconds(20)).until(() -> workload("high-jax-trillium"),
                w -> "Admitted".equals(w.get("state").asString()) && !pools().isEmpty()).get("uid").asString();
        List<String> placed = pools();
        oldPools = placed;
        agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(),
                List.of(AgentCalls.workload(uid, "high-jax-trillium", WorkloadPhase.RUNNING, placed))));

        agent.report("prod-1", delta("prod-1", "agent-a", 3, List.of(tpuPool(placed.get(0), 4, HealthState.UNHEALTHY,
                NodeHealthReason.NOT_READY)), List.of(), List.of()));
        restart = await().atMost(Duration.ofSeconds(30)).until(() -> commands(), c -> c.containsKey("RESTART"))
                .get("RESTART");
    }

    @Test
    void oldPodsStillRunningOnTheOldPoolsAreNotTheReplacementRunning() {
        List<String> newPools = pools();
        assertThat(newPools).isNotEqualTo(oldPools);

        agent.report("prod-1", delta("prod-1", "agent-a", 4, List.of(), List.of(),
                List.of(AgentCalls.workload(uid, "high-jax-trillium", WorkloadPhase.RUNNING, oldPools))));
        agent.report("prod-1", delta("prod-1", "agent-a", 5, List.of(), List.of(),
                List.of(AgentCalls.workload(uid, "high-jax-trillium", WorkloadPhase.RUNNING, List.of(newPools.get(0))))));

        assertThat(workload("high-jax-trillium").get("state").asString()).isEqualTo("Admitted");
        assertThat(api.get("/api/v1/hotswaps").json().at("/items/0/runningAt").isNull()).isTrue();

        agent.report("prod-1", delta("prod-1", "agent-a", 6, List.of(), List.of(),
                List.of(AgentCalls.workload(uid, "high-jax-trillium", WorkloadPhase.RUNNING, newPools))));

        assertThat(workload("high-jax-trillium").get("state").asString()).isEqualTo("Running");
        JsonNode event = await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/api/v1/hotswaps").json()
                .at("/items/0"), e -> !e.get("runningAt").isNull());
        assertThat(event.get("outcome").asString()).isEqualTo("Recovered");
    }

    @Test
    void theReplacementRunningWithEveryPodReadyIsOneTimelineEntry() {
        List<String> newPools = pools();

        agent.report("prod-1", delta("prod-1", "agent-a", 4, List.of(), List.of(), List.of(new WorkloadStatusReport(uid,
                "team-a", "high-jax-trillium", WorkloadPhase.RUNNING, 0, 8, 0, 0,
                newPools.stream().map(p -> p + "-node-0").toList(), newPools))));

        assertThat(workload("high-jax-trillium").get("state").asString()).isEqualTo("Running");
        assertThat(jdbc.sql("""
                        SELECT status || ' ' || reason FROM workload_event
                        WHERE workload_uid = ?::uuid AND type = 'PodsReady'
                          AND at = (SELECT max(at) FROM workload_event WHERE workload_uid = ?::uuid AND type = 'PodsReady')""")
                .params(uid, uid).query(String.class).list())
                .as("running again is the entry that says its pods are ready, not a Recovered beside it")
                .containsExactly("True PodsReady");
    }

    @Test
    void aFailedRestartRequeuesTheWorkloadAndItIsAdmittedAgain() {
        agent.result("prod-1", new CommandResult(restart, CommandStatus.FAILED,
                "old pods protected by a PodDisruptionBudget; not restarted", null, "agent-a", Instant.now()));

        JsonNode event = await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/api/v1/hotswaps").json()
                .at("/items/0"), e -> "Requeued".equals(e.get("outcome").asString()));
        assertThat(event.get("runningAt").isNull()).isTrue();
        JsonNode readmitted = await().atMost(Duration.ofSeconds(20)).until(() -> workload("high-jax-trillium"),
                w -> "Admitted".equals(w.get("state").asString()) && commands().get("START") > restart);
        assertThat(readmitted.get("conditions").valueStream()
                .map(c -> c.get("type").asString() + "/" + c.get("reason").asString()))
                .contains("Evicted/QuotaReserved", "Requeued/NodeFailures");
        // admitted again, the eviction is over, as Kueue resets it, saying what it was
        assertThat(readmitted.get("conditions").valueStream().filter(c -> c.get("type").asString().equals("Evicted"))
                .findFirst().orElseThrow().get("message").asString()).startsWith("Previously: ")
                .contains("PodDisruptionBudget");
        assertThat(jdbc.sql("SELECT message FROM workload_event WHERE workload_uid = ?::uuid AND reason = 'NodeFailures'"
                        + " AND type = 'Evicted'").param(uid).query(String.class).single())
                .contains("PodDisruptionBudget");
    }

    @Test
    void anExpiredRestartIsIssuedAgainWithAFreshExpiry() {
        Instant refusedAt = Instant.now();
        agent.result("prod-1", new CommandResult(restart, CommandStatus.REFUSED_EXPIRED, "expired", null, "agent-a",
                refusedAt));

        List<Map<String, Object>> restarts = await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.sql("""
                        SELECT seq, state, payload::text AS payload, expires_at FROM agent_command
                        WHERE workload_uid = ?::uuid AND type = 'RESTART' ORDER BY seq""").param(uid)
                .query().listOfRows(), rows -> rows.size() == 2);
        assertThat(restarts.get(0).get("state")).isEqualTo("Refused");
        assertThat(restarts.get(1).get("state")).isEqualTo("Pending");
        assertThat(restarts.get(1).get("payload")).isEqualTo(restarts.get(0).get("payload"));
        assertThat(((Timestamp) restarts.get(1).get("expires_at")).toInstant()).isAfter(refusedAt.plusSeconds(60));
    }

    @Test
    void noRestartIsIssuedForAWorkloadThatMovedOn() {
        assertThat(api.delete("/api/v1/namespaces/default/workloads/high-jax-trillium").status()).isEqualTo(200);

        agent.result("prod-1", new CommandResult(restart, CommandStatus.REFUSED_EXPIRED, "expired", null, "agent-a",
                Instant.now()));

        assertThat(jdbc.sql("SELECT state FROM agent_command WHERE seq = ?").param(restart).query(String.class)
                .single()).isEqualTo("Refused");
        assertThat(jdbc.sql("SELECT type FROM agent_command WHERE workload_uid = ?::uuid ORDER BY seq").param(uid)
                .query(String.class).list()).containsExactly("START", "RESTART", "DELETE");
    }

    private Map<String, Long> commands() {
        Map<String, Long> latest = new HashMap<>();
        jdbc.sql("SELECT type, seq FROM agent_command WHERE workload_uid = ?::uuid ORDER BY seq").param(uid)
                .query((rs, i) -> Map.entry(rs.getString(1), rs.getLong(2))).list()
                .forEach(e -> latest.put(e.getKey(), e.getValue()));
        return latest;
    }

    private List<String> pools() {
        return Admissions.nodePools(workload("high-jax-trillium"));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
