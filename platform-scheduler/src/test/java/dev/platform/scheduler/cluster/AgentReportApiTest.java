package dev.platform.scheduler.cluster;

import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.scheduler.core.placement.NodePool;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;
import tools.jackson.databind.JsonNode;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.platform.scheduler.cluster.AgentCalls.cpuPool;
import static dev.platform.scheduler.cluster.AgentCalls.delta;
import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;

/** Reports from agents: FULL and DELTA inventory, sequences, 409, staleness, authentication. */
@RecordApplicationEvents
class AgentReportApiTest extends PlatformApplicationTest {

    @Autowired
    AgentReportService reports;

    @Autowired
    ApplicationEvents events;

    AgentCalls agent;

    @BeforeEach
    void setUp() {
        agent = new AgentCalls(port);
    }

    @Test
    void fullThenDeltaReplaceAndMergeTheInventory() {
        Response first = agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(
                tpuPool("tpu-0", 4, HealthState.HEALTHY), tpuPool("tpu-1", 4, HealthState.HEALTHY),
                cpuPool("cpu", 2)), List.of()));
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().get("applied").asBoolean()).isTrue();

        JsonNode pools = api.get("/api/v1/clusters/prod-1/nodepools").json();
        assertThat(pools.get("stale").asBoolean()).isFalse();
        assertThat(pools.get("items")).extracting(p -> p.get("name").asString()).containsExactly("cpu", "tpu-0", "tpu-1");
        JsonNode tpu0 = pools.at("/items/1");
        assertThat(tpu0.get("accelerator").asString()).isEqualTo("tpu-v6e-slice");
        assertThat(tpu0.get("topology").asString()).isEqualTo("4x4");
        assertThat(tpu0.get("nodes").asInt()).isEqualTo(4);
        assertThat(tpu0.get("chipsPerNode").asInt()).isEqualTo(4);
        assertThat(tpu0.get("chips").asInt()).isEqualTo(16);
        assertThat(tpu0.get("health").asString()).isEqualTo("Healthy");
        assertThat(tpu0.get("unhealthySince").isNull()).isTrue();
        assertThat(nodeCount("prod-1")).isEqualTo(10);

        Response second = agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(
                tpuPool("tpu-1", 4, HealthState.UNHEALTHY, NodeHealthReason.NOT_READY, NodeHealthReason.UNREACHABLE)),
                List.of("cpu"), List.of()));
        assertThat(second.status()).as(second.body()).isEqualTo(200);

        pools = api.get("/api/v1/clusters/prod-1/nodepools").json();
        assertThat(pools.get("items")).extracting(p -> p.get("name").asString()).containsExactly("tpu-0", "tpu-1");
        assertThat(pools.at("/items/0/health").asString()).isEqualTo("Healthy");
        assertThat(pools.at("/items/1/health").asString()).isEqualTo("Unhealthy");
        assertThat(pools.at("/items/1/reasons")).extracting(JsonNode::asString).containsExactly("NOT_READY", "UNREACHABLE");
        assertThat(pools.at("/items/1/unhealthySince").isNull()).isFalse();
        assertThat(nodeCount("prod-1")).isEqualTo(8);
        assertThat(jdbc.sql("SELECT health FROM node WHERE cluster = 'prod-1' AND name = 'tpu-1-node-0'")
                .query(String.class).single()).isEqualTo("Unhealthy");

        JsonNode cluster = api.get("/api/v1/clusters").json().at("/items/0");
        assertThat(cluster.get("name").asString()).isEqualTo("prod-1");
        assertThat(cluster.get("connected").asBoolean()).isTrue();
        assertThat(cluster.get("stale").asBoolean()).isFalse();
        assertThat(cluster.get("agentId").asString()).isEqualTo("agent-a");
        assertThat(cluster.at("/nodePools/total").asInt()).isEqualTo(2);
        assertThat(cluster.at("/nodePools/healthy").asInt()).isEqualTo(1);
        assertThat(cluster.at("/nodePools/unhealthy").asInt()).isEqualTo(1);
    }

    @Test
    void aFullReportDropsPoolsItDoesNotList() {
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY),
                tpuPool("tpu-1", 2, HealthState.HEALTHY)), List.of()));

        agent.report("prod-1", full("prod-1", "agent-a", 2, List.of(tpuPool("tpu-1", 2, HealthState.HEALTHY)),
                List.of()));

        assertThat(api.get("/api/v1/clusters/prod-1/nodepools").json().get("items"))
                .extracting(p -> p.get("name").asString()).containsExactly("tpu-1");
        assertThat(nodeCount("prod-1")).isEqualTo(2);
    }

    @Test
    void aDeltaWithoutAFullReportFromItsAgentIs409() {
        Response noCluster = agent.report("prod-2", delta("prod-2", "agent-a", 1, List.of(), List.of(), List.of()));
        assertThat(noCluster.status()).isEqualTo(409);
        assertThat(noCluster.contentType()).startsWith("application/problem+json");
        assertThat(noCluster.json().get("detail").asString()).contains("FULL");
        assertThat(api.get("/api/v1/clusters/prod-2").status()).isEqualTo(404);

        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
        Response otherAgent = agent.report("prod-1", delta("prod-1", "agent-b", 7,
                List.of(tpuPool("tpu-0", 2, HealthState.UNHEALTHY, NodeHealthReason.CORDONED)), List.of(), List.of()));

        assertThat(otherAgent.status()).isEqualTo(409);
        assertThat(otherAgent.json().get("detail").asString()).contains("agent-b").contains("agent-a");
        assertThat(api.get("/api/v1/clusters/prod-1/nodepools").json().at("/items/0/health").asString())
                .isEqualTo("Healthy");
    }

    @Test
    void aDeltaAfterAMissedReportIs409() {
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));

        Response gap = agent.report("prod-1", delta("prod-1", "agent-a", 3, List.of(), List.of("tpu-0"), List.of()));

        assertThat(gap.status()).isEqualTo(409);
        assertThat(nodeCount("prod-1")).isEqualTo(2);
    }

    @Test
    void aReportNotNewerThanTheLastIsIgnored() {
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
        agent.report("prod-1", delta("prod-1", "agent-a", 2,
                List.of(tpuPool("tpu-0", 2, HealthState.DEGRADED, NodeHealthReason.MAINTENANCE_SCHEDULED)), List.of(),
                List.of()));

        Response replay = agent.report("prod-1", delta("prod-1", "agent-a", 2,
                List.of(tpuPool("tpu-0", 2, HealthState.UNHEALTHY, NodeHealthReason.CORDONED)), List.of(), List.of()));

        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.json().get("applied").asBoolean()).isFalse();
        assertThat(api.get("/api/v1/clusters/prod-1/nodepools").json().at("/items/0/health").asString())
                .isEqualTo("Degraded");
        assertThat(jdbc.sql("SELECT last_report_seq FROM cluster WHERE name = 'prod-1'").query(Long.class).single())
                .isEqualTo(2);
    }

    @Test
    void aRestartedAgentProcessIsHeardAlthoughItCountsAgain() {
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
        agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(tpuPool("tpu-1", 2, HealthState.HEALTHY)),
                List.of(), List.of()));

        // same pod name, new process: sequence 1 again, stamped later
        Response restarted = agent.report("prod-1", full("prod-1", "agent-a", 1,
                List.of(tpuPool("tpu-1", 2, HealthState.UNHEALTHY, NodeHealthReason.NOT_READY)), List.of()));

        assertThat(restarted.json().get("applied").asBoolean()).isTrue();
        assertThat(api.get("/api/v1/clusters/prod-1/nodepools").json().get("items"))
                .extracting(p -> p.get("health").asString()).containsExactly("Unhealthy");
    }

    @Test
    void healthChangesArePublishedAndUnhealthySinceIsKeptUntilTheSliceHeals() {
        reports.apply("prod-1", null, full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
        reports.apply("prod-1", null, delta("prod-1", "agent-a", 2,
                List.of(tpuPool("tpu-0", 2, HealthState.UNHEALTHY, NodeHealthReason.NOT_READY)), List.of(), List.of()));
        String since = unhealthySince("tpu-0");
        reports.apply("prod-1", null, delta("prod-1", "agent-a", 3,
                List.of(tpuPool("tpu-0", 2, HealthState.UNHEALTHY, NodeHealthReason.NOT_READY,
                        NodeHealthReason.UNREACHABLE)), List.of(), List.of()));
        assertThat(unhealthySince("tpu-0")).isEqualTo(since).isNotNull();
        reports.apply("prod-1", null, delta("prod-1", "agent-a", 4, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of(), List.of()));
        assertThat(unhealthySince("tpu-0")).isNull();

        assertThat(events.stream(NodePoolHealthChanged.class)).containsExactly(
                new NodePoolHealthChanged("prod-1", "tpu-0", null, NodePool.Health.Healthy, List.of()),
                new NodePoolHealthChanged("prod-1", "tpu-0", NodePool.Health.Healthy, NodePool.Health.Unhealthy,
                        List.of(NodeHealthReason.NOT_READY)),
                new NodePoolHealthChanged("prod-1", "tpu-0", NodePool.Health.Unhealthy, NodePool.Health.Healthy,
                        List.of()));
    }

    @Test
    void aStaleClusterShowsItsPoolsUnknown() {
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY),
                tpuPool("tpu-1", 2, HealthState.UNHEALTHY, NodeHealthReason.NOT_READY)), List.of()));

        jdbc.sql("UPDATE cluster SET last_report_at = now() - interval '1 hour' WHERE name = 'prod-1'").update();

        JsonNode pools = api.get("/api/v1/clusters/prod-1/nodepools").json();
        assertThat(pools.get("stale").asBoolean()).isTrue();
        assertThat(pools.get("items")).extracting(p -> p.get("health").asString()).containsExactly("Unknown", "Unknown");
        assertThat(pools.get("items")).extracting(p -> p.get("reportedHealth").asString())
                .containsExactly("Healthy", "Unhealthy");
        JsonNode cluster = api.get("/api/v1/clusters/prod-1").json();
        assertThat(cluster.get("stale").asBoolean()).isTrue();
        assertThat(cluster.get("connected").asBoolean()).isTrue();
        assertThat(cluster.at("/nodePools/unknown").asInt()).isEqualTo(2);
        assertThat(cluster.at("/nodePools/healthy").asInt()).isZero();
    }

    @Test
    void anEmptyDeltaIsAHeartbeatThatKeepsTheClusterFresh() {
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
        jdbc.sql("UPDATE cluster SET last_report_at = now() - interval '1 hour' WHERE name = 'prod-1'").update();
        assertThat(api.get("/api/v1/clusters/prod-1").json().get("stale").asBoolean()).isTrue();

        Response heartbeat = agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(), List.of()));

        assertThat(heartbeat.status()).as(heartbeat.body()).isEqualTo(200);
        JsonNode pools = api.get("/api/v1/clusters/prod-1/nodepools").json();
        assertThat(pools.get("stale").asBoolean()).isFalse();
        assertThat(pools.get("items")).extracting(p -> p.get("health").asString()).containsExactly("Healthy");
    }

    @Test
    void agentCallsWithoutTheTokenAre401() {
        Response missing = agent.pollWithAuthorization("prod-1", null);
        Response wrong = agent.pollWithAuthorization("prod-1", "Bearer not-the-token");
        Response basic = agent.pollWithAuthorization("prod-1", "Basic " + TestIdentity.agentToken("prod-1"));

        assertThat(List.of(missing, wrong, basic)).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.contentType()).startsWith("application/problem+json");
        });
        assertThat(missing.json().get("detail").asString()).contains("Authorization: Bearer");
        assertThat(agent.pollWithAuthorization("prod-1", "Bearer " + TestIdentity.agentToken("prod-1")).status())
                .isEqualTo(200);
    }

    @Test
    void aReportWhoseBodyNamesAnotherClusterIs400AndAPathNoTokenCanBeBoundToIs403() {
        Response mismatch = agent.report("prod-1", full("prod-2", "agent-a", 1, List.of(), List.of()));
        Response invalid = agent.reportWithToken("Prod_1", TestIdentity.agentToken("prod-1"),
                full("Prod_1", "agent-a", 1, List.of(), List.of()));

        assertThat(mismatch.status()).isEqualTo(400);
        assertThat(invalid.status()).isEqualTo(403);
        assertThat(invalid.contentType()).startsWith("application/problem+json");
        assertThat(jdbc.sql("SELECT count(*) FROM cluster").query(Long.class).single()).isZero();
    }

    /**
     * A report announcing more than the agent endpoints accept is answered 413 from its headers: the client sends
     * no byte of its body and still gets the answer.
     */
    @Test
    void anOversizedReportIsRefused413WithoutItsBodyBeingRead() throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("POST /api/v1/agent/clusters/prod-1/reports HTTP/1.1\r\n"
                    + "Host: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n"
                    + "Authorization: Bearer " + TestIdentity.agentToken("prod-1") + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));

            assertThat(in.readLine()).startsWith("HTTP/1.1 413");
            StringBuilder rest = new StringBuilder();
            for (String line = in.readLine(); line != null && !line.contains("}"); line = in.readLine()) {
                rest.append(line).append('\n');
            }
            assertThat(rest.toString()).contains("application/problem+json");
        }
        assertThat(jdbc.sql("SELECT count(*) FROM cluster").query(Long.class).single()).isZero();
    }

    private long nodeCount(String cluster) {
        return jdbc.sql("SELECT count(*) FROM node WHERE cluster = ?").param(cluster).query(Long.class).single();
    }

    private String unhealthySince(String pool) {
        return jdbc.sql("SELECT unhealthy_since::text FROM node_pool WHERE name = ?").param(pool)
                .query(String.class).optional().orElse(null);
    }
}
