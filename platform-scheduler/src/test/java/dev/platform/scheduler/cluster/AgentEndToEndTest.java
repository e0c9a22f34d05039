package dev.platform.scheduler.cluster;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The real agent (platform-agent) on a simulated TPU cluster, talking HTTP to the running scheduler. */
class AgentEndToEndTest extends SimulatedClusterTest {

    @Test
    void theSimulatedClustersPoolsAppearHealthyAndAFailedSliceTurnsUnhealthy() {
        JsonNode pools = await().atMost(Duration.ofSeconds(10)).until(
                () -> api.get("/api/v1/clusters/sim/nodepools"),
                r -> r.status() == 200 && r.json().get("items").size() == 5).json();
        assertThat(pools.get("items")).extracting(p -> p.get("name").asString()).containsExactly(
                "sim-cpu", "sim-v6e-4x4-0", "sim-v6e-4x4-1", "sim-v6e-4x4-2", "sim-v6e-4x4-3");
        assertThat(pools.get("items")).allSatisfy(p -> assertThat(p.get("health").asString()).isEqualTo("Healthy"));
        assertThat(pools.get("items")).filteredOn(p -> p.get("name").asString().startsWith("sim-v6e"))
                .allSatisfy(p -> {
                    assertThat(p.get("accelerator").asString()).isEqualTo("tpu-v6e-slice");
                    assertThat(p.get("topology").asString()).isEqualTo("4x4");
                    assertThat(p.get("nodes").asInt()).isEqualTo(4);
                    assertThat(p.get("chips").asInt()).isEqualTo(16);
                });

        cluster.failPool("sim-v6e-4x4-1");

        JsonNode failed = await().atMost(Duration.ofSeconds(5)).until(
                () -> pool("sim-v6e-4x4-1"), p -> p.get("health").asString().equals("Unhealthy"));
        assertThat(failed.get("reasons")).extracting(JsonNode::asString).contains("NOT_READY", "UNREACHABLE");
        assertThat(failed.get("unhealthySince").isNull()).isFalse();
        assertThat(pool("sim-v6e-4x4-0").get("health").asString()).isEqualTo("Healthy");

        cluster.recoverPool("sim-v6e-4x4-1");

        await().atMost(Duration.ofSeconds(5)).until(
                () -> pool("sim-v6e-4x4-1"), p -> p.get("health").asString().equals("Healthy"));
    }

    @Test
    void aJobSetSubmittedOverRestIsStartedInTheClusterRunsAndFinishesAfterItsSimulatedRuntime() {
        await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/api/v1/clusters/sim").status() == 200);
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", """
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: short
                  labels: {kueue.x-k8s.io/queue-name: lq}
                  annotations: {platform.dev/simulated-runtime: 3s}
                spec:
                  replicatedJobs:
                  - name: workers
                    replicas: 1
                    template:
                      spec:
                        parallelism: 2
                        completions: 2
                        template:
                          spec:
                            restartPolicy: Never
                            containers:
                            - name: main
                              image: busybox
                              resources: {requests: {cpu: "1"}}
                """);
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        UUID uid = UUID.fromString(submitted.json().get("uid").asString());

        JsonNode running = await().atMost(Duration.ofSeconds(20)).until(() -> workload("short"),
                w -> "Running".equals(w.get("state").asString()));
        assertThat(running.at("/admission/podSetAssignments/0/flavors/cpu").asString()).isEqualTo("default");
        assertThat(jdbc.sql("SELECT cluster FROM workload WHERE uid = ?").param(uid).query(String.class).single())
                .isEqualTo("sim");
        await().atMost(Duration.ofSeconds(30)).until(() -> workload("short").get("state").asString(), "Finished"::equals);

        Map<String, Object> start = jdbc.sql("SELECT seq, type, state FROM agent_command WHERE workload_uid = ?")
                .param(uid).query().singleRow();
        assertThat(start).containsEntry("type", "START").containsEntry("state", "Succeeded");
        assertThat(api.get("/api/v1/clusters/sim").json().get("lastAcknowledgedCommand").asLong())
                .isEqualTo(((Number) start.get("seq")).longValue());
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/short/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()))
                .contains("PodsReady/PodsReady", "Finished/Succeeded");
        assertThat(api.get("/api/v1/clusterqueues/cq").json().at("/usage/0/used").asString()).isEqualTo("0");
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/team-a/workloads/" + name).json();
    }

    private JsonNode pool(String name) {
        for (JsonNode pool : api.get("/api/v1/clusters/sim/nodepools").json().get("items")) {
            if (pool.get("name").asString().equals(name)) {
                return pool;
            }
        }
        throw new AssertionError("no pool " + name);
    }

}
