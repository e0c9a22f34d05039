package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workload whose quota fits but whose slices find no node pool (five slices, four pools) waits for a pool; when an Admin then lowers its
 * ClusterQueue's quota below its request, the next cycle tells why it waits now, with no change to the node pools.
 * The real agent on a simulated cluster of four 4x4 v6e pools.
 */
class PendingReasonAfterQuotaChangeTest extends SimulatedClusterTest {

    private static final String SEED = "seed-kueue-and-hotswap.yaml";

    @Test
    void aQuotaLoweredBelowTheRequestReplacesWaitingForNodePoolWithAQuotaReason() {
        apply(SeedManifests.without(SEED, "high-jax-trillium").replace("nominalQuota: 32", "nominalQuota: 96")
                .replace("replicas: 2", "replicas: 5"));
        JsonNode waiting = awaitPendingReason("WaitingForNodePool");
        assertThat(waiting.at("/pendingReason/message").asString()).contains("needs 5 free healthy node pool(s)");

        apply(clusterQueue(64));

        JsonNode overQuota = awaitPendingReason("ExceedsMaxQuota");
        assertThat(overQuota.get("state").asString()).isEqualTo("Pending");
        assertThat(overQuota.at("/pendingReason/message").asString()).contains("google.com/tpu");
    }

    /** The seed's ClusterQueue with {@code chips} of nominal quota. */
    private static String clusterQueue(int chips) {
        return SeedManifests.document(SEED, "tpu-training-cq").replace("nominalQuota: 32", "nominalQuota: " + chips);
    }

    private JsonNode awaitPendingReason(String code) {
        return await().atMost(Duration.ofSeconds(30)).until(
                () -> api.get("/api/v1/namespaces/default/workloads/low-jax-trillium").json(),
                w -> code.equals(w.at("/pendingReason/code").asString()));
    }

    private void apply(String yaml) {
        PlatformClient.Response applied = api.postYaml("/api/v1/manifests", yaml);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    }
}
