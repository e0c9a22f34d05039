package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A preemption decided by the loop lands in the audit with Kueue's reason and message, and the victim
 * is requeued at its place. The audit's filters and pages are the store slice's ({@link PreemptionStoreTest}),
 * its CSV export the controller slice's ({@link PreemptionControllerTest}).
 */
class PreemptionAuditTest extends PlatformApplicationTest {

    @BeforeEach
    void setUp() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
    }

    @Test
    void higherPriorityPreemptsWithinTheClusterQueueAndTheAuditSaysWhy() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("victim", "lq", "3", "low"));
        awaitState("victim", "Admitted");

        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("urgent", "lq", "3", "high"));

        awaitState("urgent", "Admitted");
        JsonNode victim = awaitState("victim", "Pending");
        assertThat(victim.get("conditions").valueStream().map(c -> c.get("type").asString() + "/" + c.get("reason").asString()))
                .contains("Evicted/Preempted", "Preempted/InClusterQueue", "Requeued/Preempted");
        assertThat(victim.get("positionInClusterQueue").asInt()).isZero();

        JsonNode events = api.get("/api/v1/preemptions").json().get("items");
        assertThat(events).hasSize(1);
        JsonNode event = events.get(0);
        assertThat(event.get("reason").asString()).isEqualTo("InClusterQueue");
        assertThat(event.at("/preemptor/name").asString()).isEqualTo("urgent");
        assertThat(event.at("/preemptor/priority").asInt()).isEqualTo(100);
        assertThat(event.at("/victim/name").asString()).isEqualTo("victim");
        assertThat(event.at("/victim/clusterQueue").asString()).isEqualTo("cq");
        String urgentUid = api.get("/api/v1/namespaces/team-a/workloads/urgent").json().get("uid").asString();
        assertThat(event.get("message").asString()).isEqualTo("Preempted to accommodate a workload (UID: " + urgentUid
                + ") due to prioritization in the ClusterQueue; preemptor path: /cq; preemptee path: /cq");
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
