package dev.platform.scheduler.cluster;

import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.scheduler.testsupport.KubernetesAgent;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A JobSet deleted by hand (kubectl delete) from a cluster on the real Kubernetes agent, against fabric8's mock
 * API server: the agent's next FULL report lacks it, and after the grace its workload is requeued with reason
 * JobSetMissing, its quota freed, and started again, while the other JobSet runs on untouched. The work it lost counts
 * from the last checkpoint its training annotated on the JobSet in the cluster ({@code platform.dev/last-checkpoint},
 * no platform token needed), which the agent reported and the scheduler stored on the workload.
 */
class MissingJobSetOnKubernetesTest extends PlatformApplicationTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private KubernetesAgent cluster;

    @BeforeEach
    void startAgent() {
        cluster = KubernetesAgent.start(port, api, Duration.ofSeconds(2));
    }

    @AfterEach
    void stopAgent() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aJobSetDeletedInTheClusterIsRequeuedAndStartedAgain() {
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        awaitState("high-jax-trillium", "Running");
        awaitState("low-jax-trillium", "Running");

        cluster.deleteJobSet("high-jax-trillium");

        await().atMost(PATIENCE).until(() -> events("high-jax-trillium").contains("Evicted/JobSetMissing"));
        assertThat(events("high-jax-trillium")).contains("Requeued/JobSetMissing");
        awaitState("high-jax-trillium", "Running");
        assertThat(cluster.jobSet("high-jax-trillium")).as("created again by the new START").isPresent();
        assertThat(events("low-jax-trillium")).doesNotContain("Evicted/JobSetMissing");
        assertThat(workload("low-jax-trillium").get("state").asString()).isEqualTo("Running");
    }

    @Test
    void theCheckpointAnnotatedInTheClusterIsWhereTheLostWorkOfTheEvictionCountsFrom() {
        String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
        assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);
        JsonNode high = awaitState("high-jax-trillium", "Running");
        Instant checkpoint = Instant.parse(high.get("admittedAt").asString()).plusMillis(500);

        // the JobSet controller writes the JobSet too: an edit may meet its newer version and is made again
        await().atMost(PATIENCE).ignoreExceptions().untilAsserted(() -> cluster.annotateJobSet("high-jax-trillium",
                PreemptionAnnotations.LAST_CHECKPOINT, checkpoint.toString()));
        await().atMost(PATIENCE).until(() -> checkpoint.toString().equals(storedCheckpoint("high-jax-trillium")));

        cluster.deleteJobSet("high-jax-trillium");

        await().atMost(PATIENCE).until(() -> events("high-jax-trillium").contains("LostWork/JobSetMissing"));
        assertThat(jdbc.sql("SELECT since FROM lost_work WHERE name = 'high-jax-trillium'").query(Timestamp.class)
                .list().stream().map(Timestamp::toInstant).toList()).containsExactly(checkpoint);
        // counted once the eviction commits, just after the timeline shows it
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(api.get("/actuator/prometheus", "text/plain").body())
                .containsPattern("platform_preemption_lost_work_seconds_total\\{cluster_queue=\"tpu-training-cq\","
                        + "reason=\"JobSetMissing\"} [0-9.E]+"));
    }

    private String storedCheckpoint(String name) {
        return jdbc.sql("SELECT coalesce(manifest -> 'metadata' -> 'annotations' ->> 'platform.dev/last-checkpoint',"
                + " '') FROM workload WHERE name = ?").param(name).query(String.class).single();
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(PATIENCE).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/" + KubernetesAgent.NAMESPACE + "/workloads/" + name).json();
    }

    private List<String> events(String name) {
        return api.get("/api/v1/namespaces/" + KubernetesAgent.NAMESPACE + "/workloads/" + name + "/events").json()
                .get("items").valueStream().map(e -> e.get("type").asString() + "/" + e.get("reason").asString())
                .toList();
    }
}
