package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kueue's {@code kueue.x-k8s.io/priority-boost} over REST: the effective priority (class value plus boost) decides
 * which of two equal-class workloads is preempted, a merge patch of the boost re-orders at once, and the status
 * shows both parts.
 */
class PriorityBoostRestTest extends PlatformApplicationTest {

    @BeforeEach
    void setUp() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
    }

    @Test
    void aBoostedWorkloadIsSparedAndABoostPatchedLaterPreempts() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("older", "lq", "2", "low"));
        awaitState("older", "Admitted");
        api.postYaml("/api/v1/namespaces/team-a/workloads", boosted(Manifests.job("newer", "lq", "2", "low"), "5"));
        JsonNode newer = awaitState("newer", "Admitted");
        assertThat(newer.get("priority").asInt()).isEqualTo(15);
        assertThat(newer.get("basePriority").asInt()).isEqualTo(10);
        assertThat(newer.get("priorityBoost").asInt()).isEqualTo(5);

        // Without the boost Kueue's order takes the most recently admitted of equal priority: newer.
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("urgent", "lq", "2", "high"));
        awaitState("urgent", "Admitted");
        JsonNode first = api.get("/api/v1/preemptions").json().get("items");
        assertThat(first).hasSize(1);
        assertThat(first.get(0).at("/victim/name").asString()).isEqualTo("older");
        assertThat(first.get(0).at("/victim/priority").asInt()).isEqualTo(10);

        // older waits with 10; boosted to 110 it preempts the lowest admitted one, newer (15).
        assertThat(api.send("PATCH", "/api/v1/namespaces/team-a/workloads/older", Map.of(),
                "application/merge-patch+json", "{\"metadata\": {\"annotations\": {\"kueue.x-k8s.io/priority-boost\": \"100\"}}}")
                .status()).isEqualTo(200);
        JsonNode older = awaitState("older", "Admitted");
        assertThat(older.get("priority").asInt()).isEqualTo(110);
        assertThat(older.get("priorityBoost").asInt()).isEqualTo(100);
        JsonNode events = api.get("/api/v1/preemptions").json().get("items");
        assertThat(events).hasSize(2);
        assertThat(events.get(0).at("/victim/name").asString()).isEqualTo("newer");
        assertThat(events.get(0).at("/preemptor/name").asString()).isEqualTo("older");
        assertThat(events.get(0).at("/preemptor/priority").asInt()).isEqualTo(110);
    }

    @Test
    void aBoostThatIsNoIntegerIsRefusedAtItsPath() {
        var response = api.postYaml("/api/v1/namespaces/team-a/workloads",
                boosted(Manifests.job("odd", "lq", "2", "low"), "a lot"));

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.body()).contains("metadata.annotations.kueue.x-k8s.io/priority-boost");
    }

    private static String boosted(String job, String boost) {
        return job.replace("  labels:", "  annotations: {kueue.x-k8s.io/priority-boost: \"" + boost + "\"}\n  labels:");
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
