package dev.platform.scheduler.workload;

import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seed's Kueue example end to end: both JobSets enter
 * tpu-training-cq, the high-priority one is admitted with all 32 chips, the low one waits at the
 * head of the queue for quota, and cancelling the high one admits the low one.
 */
class SeedScenarioTest extends PlatformApplicationTest {


    @Test
    void highPriorityJobSetIsAdmittedLowOneWaitsForQuotaUntilTheHighOneIsCancelled() {
        Response applied = api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue-and-hotswap.yaml"));

        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(applied.json().get("results").valueStream()
                .map(r -> r.get("kind").asString() + "/" + r.get("name").asString() + "=" + r.get("action").asString()))
                .containsExactly("PriorityClass/low-priority-job=created", "PriorityClass/high-priority-job=created",
                        "ResourceFlavor/tpu-v6e-slice=created", "ClusterQueue/tpu-training-cq=created",
                        "LocalQueue/default-queue=created", "JobSet/low-jax-trillium=created",
                        "JobSet/high-jax-trillium=created");

        JsonNode high = awaitState("high-jax-trillium", "Admitted");
        assertThat(high.get("priority").asInt()).isEqualTo(2000000);
        assertThat(high.get("clusterQueue").asString()).isEqualTo("tpu-training-cq");
        JsonNode assignment = high.at("/admission/podSetAssignments/0");
        assertThat(assignment.get("name").asString()).isEqualTo("slice");
        assertThat(assignment.get("count").asInt()).isEqualTo(8);
        assertThat(assignment.at("/flavors/google.com~1tpu").asString()).isEqualTo("tpu-v6e-slice");
        assertThat(assignment.at("/resourceUsage/google.com~1tpu").asString()).isEqualTo("32");
        assertThat(high.get("conditions").valueStream().map(c -> c.get("type").asString() + "=" + c.get("status").asString()))
                .contains("QuotaReserved=True", "Admitted=True");

        JsonNode low = awaitPendingReason("low-jax-trillium", "WaitingForQuota");
        assertThat(low.get("state").asString()).isEqualTo("Pending");
        assertThat(low.get("priority").asInt()).isEqualTo(1000000);
        assertThat(low.get("positionInClusterQueue").asInt()).isZero();
        assertThat(low.get("positionInLocalQueue").asInt()).isZero();
        assertThat(low.at("/pendingReason/message").asString())
                .contains("insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice, 32 more needed");

        Response cancelled = api.delete("/api/v1/namespaces/default/workloads/high-jax-trillium");

        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().get("state").asString()).isEqualTo("Finished");
        JsonNode admitted = awaitState("low-jax-trillium", "Admitted");
        assertThat(admitted.at("/admission/podSetAssignments/0/resourceUsage/google.com~1tpu").asString()).isEqualTo("32");
        assertThat(api.get("/api/v1/namespaces/default/workloads/high-jax-trillium/events").json().get("items")
                .valueStream().map(e -> e.get("type").asString() + "/" + e.get("reason").asString()))
                .contains("Finished/Cancelled");
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> workload(name), w -> state.equals(w.get("state").asString()));
    }

    private JsonNode awaitPendingReason(String name, String reason) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> workload(name),
                w -> reason.equals(w.at("/pendingReason/code").asString()));
    }

    private JsonNode workload(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json();
    }
}
