package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The seed manifests are accepted unchanged; the ones carrying JobSets are refused for their JobSets only. */
class SeedManifestsTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    @Test
    void seedKueueDecodesToAFlavorAQueueAndALocalQueue() {
        List<DecodedDocument> documents = parser.parse(seed("seed-kueue.yaml"), Format.YAML);

        assertThat(documents).extracting(DecodedDocument::index).containsExactly(0, 1, 2);
        var flavor = (ResourceFlavorManifest) documents.get(0).manifest();
        assertThat(flavor.name()).isEqualTo("tpu-v6e-slice");
        assertThat(flavor.nodeLabels()).containsExactly(Map.entry("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"));

        var queue = (ClusterQueueManifest) documents.get(1).manifest();
        assertThat(queue.name()).isEqualTo("tpu-training-cq");
        assertThat(queue.cohort()).isNull();
        assertThat(queue.queueingStrategy()).isEqualTo(ClusterQueueManifest.QueueingStrategy.BestEffortFIFO);
        assertThat(queue.resourceGroups()).singleElement().satisfies(group -> {
            assertThat(group.coveredResources()).containsExactly("google.com/tpu");
            assertThat(group.flavors()).singleElement().satisfies(f -> {
                assertThat(f.name()).isEqualTo("tpu-v6e-slice");
                assertThat(f.resources()).singleElement().satisfies(r -> {
                    assertThat(r.name()).isEqualTo("google.com/tpu");
                    assertThat(r.nominalQuota()).isEqualTo(Quantity.of(32));
                    assertThat(r.borrowingLimit()).isNull();
                    assertThat(r.lendingLimit()).isNull();
                });
            });
        });
        assertThat(queue.preemption().reclaimWithinCohort()).isEqualTo(ClusterQueueManifest.ReclaimWithinCohort.Never);
        assertThat(documents.get(1).warnings())
                .anySatisfy(w -> assertThat(w).startsWith("spec.preemption.reclaimOutOfCohort: not a Kueue field")
                        .contains("withinClusterQueue, reclaimWithinCohort and borrowWithinCohort").endsWith("; ignored"))
                .anySatisfy(w -> assertThat(w).startsWith("spec.resourceGroups[0].coveredResources: missing"))
                .hasSize(2);

        var localQueue = (LocalQueueManifest) documents.get(2).manifest();
        assertThat(localQueue.namespace()).isEqualTo("default");
        assertThat(localQueue.name()).isEqualTo("default-queue");
        assertThat(localQueue.clusterQueue()).isEqualTo("tpu-training-cq");
        assertThat(documents.get(0).warnings()).isEmpty();
        assertThat(documents.get(2).warnings()).isEmpty();
    }

    @Test
    void seedHotswapIsRefusedForItsJobSetOnly() {
        var rejected = catchThrowableOfType(ManifestRejectedException.class,
                () -> parser.parse(seed("seed-hotswap.yaml"), Format.YAML));

        assertThat(rejected.rejection()).isEqualTo(Cause.INVALID);
        assertThat(rejected.errors()).singleElement().satisfies(e -> {
            assertThat(e.document()).isEqualTo(2);
            assertThat(e.path()).isEqualTo("kind");
            assertThat(e.message()).startsWith("JobSet is a workload kind").contains("not accepted on this endpoint yet");
        });
    }

    @Test
    void seedKueueAndHotswapIsRefusedForItsTwoJobSetsOnly() {
        var rejected = catchThrowableOfType(ManifestRejectedException.class,
                () -> parser.parse(seed("seed-kueue-and-hotswap.yaml"), Format.YAML));

        assertThat(rejected.rejection()).isEqualTo(Cause.INVALID);
        assertThat(rejected.errors()).extracting(ManifestError::document, ManifestError::path)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(5, "kind"), org.assertj.core.groups.Tuple.tuple(6, "kind"));
    }

    static byte[] seed(String name) {
        try (InputStream in = SeedManifestsTest.class.getResourceAsStream("/seed-manifests/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
