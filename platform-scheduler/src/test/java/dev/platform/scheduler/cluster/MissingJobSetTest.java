package dev.platform.scheduler.cluster;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The platform reconciled with a cluster that forgot its JobSets: the simulated cluster restarted empty (as the
 * demo's is when the platform restarts) no longer has the JobSet the platform started there; once a FULL report
 * received the grace after the START's acknowledgement lacks it, the workload is requeued with reason JobSetMissing, its quota freed, and
 * started again.
 */
class MissingJobSetTest extends SimulatedClusterTest {

    @Autowired
    MeterRegistry registry;

    @Test
    void aJobSetGoneWithARestartedClusterIsRequeuedItsQuotaFreedAndStartedAgain() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "2", "Never")).status()).isEqualTo(200);
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet("long",
                Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of("platform.dev/simulated-runtime", "1h"), "1"));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        UUID uid = UUID.fromString(submitted.json().get("uid").asString());
        await().atMost(Duration.ofSeconds(20)).until(() -> workload().get("state").asString(), "Running"::equals);
        double missingBefore = missingCount();

        agent.close();
        agent = SimulatedAgent.start(port, api, Duration.ofSeconds(1));
        cluster = agent.cluster();

        await().atMost(Duration.ofSeconds(30)).until(() -> events().contains("Evicted/JobSetMissing"));
        assertThat(events()).contains("QuotaReserved/JobSetMissing", "Requeued/JobSetMissing");
        assertThat(missingCount()).isEqualTo(missingBefore + 1);
        assertThat(jdbc.sql("SELECT type FROM agent_command WHERE workload_uid = ? ORDER BY seq").param(uid)
                .query(String.class).list()).as("the first START, the DELETE of any remnant, then the START again")
                .startsWith("START", "DELETE");

        await().atMost(Duration.ofSeconds(30)).until(() -> workload().get("state").asString(), "Running"::equals);
        assertThat(cluster.jobSet("team-a", "long")).as("started again in the new cluster").isPresent();
        assertThat(api.get("/api/v1/clusterqueues/cq").json().at("/usage/0/used").asString())
                .as("the quota of one admission, not two").isEqualTo("1");
    }

    private double missingCount() {
        Counter counter = registry.find("platform.jobsets.missing").tags("cluster", "sim", "outcome", "Requeued")
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private JsonNode workload() {
        return api.get("/api/v1/namespaces/team-a/workloads/long").json();
    }

    private List<String> events() {
        return api.get("/api/v1/namespaces/team-a/workloads/long/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()).toList();
    }
}
