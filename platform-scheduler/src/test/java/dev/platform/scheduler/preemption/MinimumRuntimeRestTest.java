package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ClusterQueue's {@code platform.dev/minimum-runtime} over REST, in real time with seconds: the preemptor waits
 * with {@code WaitingForMinimumRuntime} naming the end of the victim's protection, and once that has passed the
 * same preemption happens. The core's scenarios (p22 to p24) cover reclamation and the choice among candidates.
 */
class MinimumRuntimeRestTest extends PlatformApplicationTest {

    @Test
    void aProtectedVictimIsPreemptedOnlyOnceItsMinimumRuntimeHasPassed() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority")
                .replace("metadata: {name: cq}", "metadata: {name: cq, annotations: {platform.dev/minimum-runtime: 4s}}"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
        assertThat(api.get("/api/v1/clusterqueues/cq").body()).contains("platform.dev/minimum-runtime");

        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("victim", "lq", "4", "low"));
        Instant admittedAt = Instant.parse(awaitState("victim", "Admitted").get("admittedAt").asString());
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("urgent", "lq", "4", "high"));

        JsonNode waiting = await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/urgent").json(),
                w -> "WaitingForMinimumRuntime".equals(w.at("/pendingReason/code").asString()));
        String message = waiting.at("/pendingReason/message").asString();
        assertThat(message).contains("within their minimum runtime; protected until ");
        Instant protectedUntil = Instant.parse(message.substring(message.indexOf("protected until ") + 16));
        assertThat(protectedUntil).isBetween(admittedAt.plusSeconds(3), admittedAt.plusSeconds(6));
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/victim").json().get("state").asString())
                .isEqualTo("Admitted");

        awaitState("urgent", "Admitted");
        JsonNode events = api.get("/api/v1/preemptions").json().get("items");
        assertThat(events).hasSize(1);
        // The message rounds the end up to a whole second: the preemption happens within the second before it.
        assertThat(Instant.parse(events.get(0).get("at").asString())).isAfter(protectedUntil.minusSeconds(1));
        assertThat(events.get(0).at("/victim/name").asString()).isEqualTo("victim");
        assertThat(events.get(0).get("reason").asString()).isEqualTo("InClusterQueue");
    }

    @Test
    void aMinimumRuntimeThatIsNoDurationIsRefusedAtItsPath() {
        PlatformClient.Response response = api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority")
                .replace("metadata: {name: cq}", "metadata: {name: cq, annotations: {platform.dev/minimum-runtime: soon}}"));

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.json().get("errors").valueStream()).anySatisfy(error -> {
            assertThat(error.get("path").asString()).isEqualTo("metadata.annotations.platform.dev/minimum-runtime");
            assertThat(error.get("message").asString()).contains("not a duration");
        });
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
