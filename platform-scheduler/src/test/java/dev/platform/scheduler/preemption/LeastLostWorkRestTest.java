package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * A ClusterQueue's {@code platform.dev/preemption-order: LeastLostWork} over REST: of two victims of equal priority,
 * the older one, which has just written a checkpoint (a merge patch of {@code platform.dev/last-checkpoint}), is
 * preempted rather than the most recently admitted one Kueue's order would take, and the audit says what that cost.
 * The core's scenarios (p25 to p28) cover the order itself, across queues too.
 */
class LeastLostWorkRestTest extends PlatformApplicationTest {

    @Test
    void theVictimThatCheckpointedLastIsPreemptedAndTheAuditShowsItsLostWork() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "8", "LowerPriority").replace("cpu", "google.com/tpu")
                .replace("metadata: {name: cq}", "metadata: {name: cq, annotations: {platform.dev/preemption-order: LeastLostWork}}"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
        assertThat(api.get("/api/v1/clusterqueues/cq").body()).contains("platform.dev/preemption-order");

        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("older", "low"));
        awaitState("older", "Admitted");
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("newer", "low"));
        Instant newerAdmittedAt = Instant.parse(awaitState("newer", "Admitted").get("admittedAt").asString());
        // The older one checkpoints after the newer one was admitted: from here on it has less to lose.
        Instant checkpoint = newerAdmittedAt.plusMillis(1);
        assertThat(api.send("PATCH", "/api/v1/namespaces/team-a/workloads/older", Map.of(),
                "application/merge-patch+json",
                "{\"metadata\": {\"annotations\": {\"platform.dev/last-checkpoint\": \"" + checkpoint + "\"}}}")
                .status()).isEqualTo(200);

        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("urgent", "high"));
        awaitState("urgent", "Admitted");

        JsonNode events = api.get("/api/v1/preemptions").json().get("items");
        assertThat(events).hasSize(1);
        JsonNode event = events.get(0);
        assertThat(event.at("/victim/name").asString()).as("Kueue's order would take newer").isEqualTo("older");
        assertThat(event.get("reason").asString()).isEqualTo("InClusterQueue");
        Instant at = Instant.parse(event.get("at").asString());
        assertThat(Instant.parse(event.at("/lostWork/since").asString())).isEqualTo(checkpoint);
        assertThat(event.at("/lostWork/resourceSeconds/google.com~1tpu").asDouble())
                .isCloseTo(4 * Duration.between(checkpoint, at).toMillis() / 1000.0, within(0.01));
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/newer").json().get("state").asString())
                .isEqualTo("Admitted");
    }

    @Test
    void aPreemptionOrderOtherThanLeastLostWorkIsRefusedAtItsPath() {
        PlatformClient.Response response = api.postYaml("/api/v1/manifests", Manifests.queue("cq", "8", "LowerPriority")
                .replace("metadata: {name: cq}", "metadata: {name: cq, annotations: {platform.dev/preemption-order: Newest}}"));

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.json().get("errors").valueStream()).anySatisfy(error -> {
            assertThat(error.get("path").asString()).isEqualTo("metadata.annotations.platform.dev/preemption-order");
            assertThat(error.get("message").asString()).contains("LeastLostWork");
        });
    }

    /** A Job of one pod asking for 4 TPU chips, half the queue. */
    private static String tpuJob(String name, String priorityClass) {
        return Manifests.job(name, "lq", "4", priorityClass)
                .replace("resources: {requests: {cpu: \"4\"}}",
                        "resources: {requests: {google.com/tpu: \"4\"}, limits: {google.com/tpu: \"4\"}}");
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
