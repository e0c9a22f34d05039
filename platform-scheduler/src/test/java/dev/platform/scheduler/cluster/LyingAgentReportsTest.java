package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.testsupport.Admissions;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static dev.platform.scheduler.cluster.AgentCalls.delta;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Agent reports that lie: a report no agent could send is refused whole (400), a well-formed fact
 * that is not the reporting cluster's to tell is ignored; either way with a log line and not one
 * row changed. Two clusters, the seed's two JobSets placed one in each.
 */
@ExtendWith(OutputCaptureExtension.class)
class LyingAgentReportsTest extends PlatformApplicationTest {

    private AgentCalls agents;
    private String high;
    private String low;

    @BeforeEach
    void twoClustersEachRunningAJobSet() {
        agents = new AgentCalls(port);
        agents.connectTwoClusters();
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        high = awaitPlaced("high-jax-trillium").get("uid").asString();
        low = awaitPlaced("low-jax-trillium").get("uid").asString();
        assertThat(Admissions.nodePools(workload("low-jax-trillium"))).containsExactly("west-0", "west-1");
    }

    @Test
    void aReportNoAgentCouldSendIsRefusedWhole(CapturedOutput output) {
        NodePoolReport negativeChips = new NodePoolReport("east-2", "tpu-v6e-slice", "4x4", HealthState.HEALTHY,
                List.of(), List.of(new NodeReport("east-2-node-0", HealthState.HEALTHY, List.of(), 4, -4, null)));
        List<AgentReport> lies = List.of(
                delta("prod-1", "agent-1", 2, List.of(), List.of(), List.of(status(high, WorkloadPhase.RUNNING, -3,
                        List.of("east-0", "east-1")))),
                delta("prod-1", "agent-1", 2, List.of(negativeChips), List.of(), List.of()),
                delta("prod-1", "agent-1", 2, List.of(tpuPool("east-0", 4, HealthState.HEALTHY),
                        tpuPool("east-0", 4, HealthState.UNHEALTHY)), List.of(), List.of()),
                delta("prod-1", "agent-1", 2, List.of(), List.of(), List.of(status(high, null, 4,
                        List.of("east-0", "east-1")))),
                delta("prod-1", "agent-1", -7, List.of(), List.of(), List.of()),
                // a stray JobSet under a name no Kubernetes object has: the platform would store and command it
                delta("prod-1", "agent-1", 2, List.of(), List.of(), List.of(new WorkloadStatusReport(
                        "00000000-0000-0000-0000-000000000001", "team-a", "+\u202e$.\ta&", WorkloadPhase.RUNNING, 0, 1,
                        0, 0, List.of(), List.of()))),
                // PostgreSQL stores no NUL character: refused by the database, rolled back whole
                delta("prod-1", "agent-1", 2, List.of(new NodePoolReport("east-0", "tpu-v6e-slice", "4x4",
                        HealthState.HEALTHY, List.of(), List.of(new NodeReport("east-0-node-\u0000", HealthState.HEALTHY,
                        List.of(), 4, 4, null)))), List.of(), List.of()));
        for (AgentReport lie : lies) {
            DatabaseCleaner.Observed<Response> observed = DatabaseCleaner.observe(jdbc, loop,
                    () -> agents.report("prod-1", lie));

            assertThat(observed.result().status()).as(observed.result().body()).isEqualTo(400);
            assertThat(observed.result().contentType()).startsWith("application/problem+json");
            assertThat(observed.changedRows()).as("refused report %s", lie).isFalse();
        }
        assertThat(output.getOut()).contains("cluster prod-1: report 2 of agent agent-1 refused, nothing applied")
                .contains("pod counts must not be negative").contains("chip counts must not be negative")
                .contains("pool east-0 is listed twice").contains("phase is required")
                .contains("sequence -7 is negative").contains("jobSetName: '+")
                .contains("is not a lowercase RFC 1123 subdomain");
    }

    @Test
    void factsThatAreNotTheReportingClustersAreIgnored(CapturedOutput output) {
        List<AgentReport> lies = List.of(
                // low runs in prod-2: prod-1 may not finish it, nor claim it runs there
                delta("prod-1", "agent-1", 2, List.of(), List.of(), List.of(status(low, WorkloadPhase.SUCCEEDED, 0,
                        List.of("west-0", "west-1")))),
                delta("prod-1", "agent-1", 3, List.of(), List.of(), List.of(status(low, WorkloadPhase.RUNNING, 16,
                        List.of("east-0", "east-1")))),
                // high runs in prod-1, but not on pools prod-1 never reported
                delta("prod-1", "agent-1", 4, List.of(), List.of(), List.of(status(high, WorkloadPhase.RUNNING, 16,
                        List.of("ghost-0", "ghost-1")))),
                delta("prod-1", "agent-1", 5, List.of(), List.of(), List.of(status(UUID.randomUUID().toString(),
                        WorkloadPhase.FAILED, 0, List.of()))));
        for (AgentReport lie : lies) {
            Response response = agents.report("prod-1", lie);
            assertThat(response.status()).as(response.body()).isEqualTo(200);
        }

        assertThat(workload("low-jax-trillium").get("state").asString()).isEqualTo("Admitted");
        assertThat(workload("high-jax-trillium").get("state").asString()).isEqualTo("Admitted");
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json().at("/usage/0/used").asString())
                .isEqualTo("64");
        assertThat(jdbc.sql("SELECT count(*) FROM cluster_workload").query(Long.class).single()).isZero();
        assertThat(output.getOut())
                .contains("cluster prod-1 reports workload " + low)
                .contains("as SUCCEEDED, but it is placed in cluster prod-2: ignored")
                .contains("as RUNNING, but it is placed in cluster prod-2: ignored")
                .contains("cluster prod-1 reports workload " + high)
                .contains("on node pools it has not reported, [ghost-0, ghost-1]: ignored")
                .contains("that the platform does not know: ignored");
    }

    private static WorkloadStatusReport status(String uid, WorkloadPhase phase, int podsRunning, List<String> pools) {
        String name = "job-" + uid.substring(0, 8);
        return new WorkloadStatusReport(uid, "default", name, phase, 0, podsRunning, 0, 0,
                pools.stream().map(p -> p + "-node-0").toList(), pools);
    }

    private JsonNode awaitPlaced(String name) {
        return await().atMost(Duration.ofSeconds(30)).until(() -> workload(name),
                w -> "Admitted".equals(w.get("state").asString()) && !Admissions.nodePools(w).isEmpty());
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
