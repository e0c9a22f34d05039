package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.WorkloadManifest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The seed manifests are accepted unchanged, JobSets included. */
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
        assertThat(documents.get(1).warnings()).as("the omitted coveredResources, taken from the flavor, is no warning")
                .singleElement().asString().startsWith("spec.preemption.reclaimOutOfCohort: not a Kueue field")
                .contains("withinClusterQueue, reclaimWithinCohort and borrowWithinCohort").endsWith("; ignored");

        var localQueue = (LocalQueueManifest) documents.get(2).manifest();
        assertThat(localQueue.namespace()).isEqualTo("default");
        assertThat(localQueue.name()).isEqualTo("default-queue");
        assertThat(localQueue.clusterQueue()).isEqualTo("tpu-training-cq");
        assertThat(documents.get(0).warnings()).isEmpty();
        assertThat(documents.get(2).warnings()).isEmpty();
    }

    @Test
    void seedKueueAndHotswapDecodesItsJobSetsAsTwoSliceWorkloadsInTheDefaultQueue() {
        List<DecodedDocument> documents = parser.parse(seed("seed-kueue-and-hotswap.yaml"), Format.YAML);

        assertThat(documents).extracting(DecodedDocument::index).containsExactly(0, 1, 2, 3, 4, 5, 6);
        var low = (WorkloadManifest) documents.get(5).manifest();
        assertThat(low.kind()).isEqualTo(Kind.JOB_SET);
        assertThat(low.apiVersion()).isEqualTo("jobset.x-k8s.io/v1alpha2");
        assertThat(low.namespace()).isEqualTo("default");
        assertThat(low.name()).isEqualTo("low-jax-trillium");
        assertThat(low.queueName()).isEqualTo("default-queue");
        assertThat(low.workloadPriorityClassName()).isNull();
        assertThat(low.priorityClassName()).isEqualTo("low-priority-job");
        assertThat(low.explicitPriority()).isNull();
        assertThat(low.exclusiveTopology()).isEqualTo("cloud.google.com/gke-nodepool");
        assertThat(low.maxRestarts()).isEqualTo(10);
        assertThat(low.restartStrategy()).isEqualTo("BlockingRecreate");
        assertThat(low.suspend()).isFalse();
        assertThat(low.podSets()).singleElement().satisfies(podSet -> {
            assertThat(podSet.name()).isEqualTo("slice");
            assertThat(podSet.count()).isEqualTo(8);
            assertThat(podSet.minCount()).isNull();
            assertThat(podSet.replicas()).isEqualTo(2);
            assertThat(podSet.podsPerReplica()).isEqualTo(4);
            assertThat(podSet.requests()).containsExactly(Map.entry("google.com/tpu", Quantity.of(4)));
            assertThat(podSet.nodeSelector()).containsOnly(
                    Map.entry("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"),
                    Map.entry("cloud.google.com/gke-tpu-topology", "4x4"));
            assertThat(podSet.requiredNodeAffinity()).isEmpty();
            assertThat(podSet.tolerations()).isEmpty();
        });
        assertThat(low.manifest()).containsEntry("kind", "JobSet").containsKey("spec");

        var high = (WorkloadManifest) documents.get(6).manifest();
        assertThat(high.name()).isEqualTo("high-jax-trillium");
        assertThat(high.priorityClassName()).isEqualTo("high-priority-job");
    }

    @Test
    void theSeedsJobSetsApplyWithoutAWarning() {
        List<DecodedDocument> documents = parser.parse(seed("seed-kueue-and-hotswap.yaml"), Format.YAML);

        assertThat(documents.get(5).warnings()).as("the pod template's priority-class label names its priorityClassName")
                .isEmpty();
        assertThat(documents.get(6).warnings()).isEmpty();
    }

    @Test
    void aPodTemplatesPriorityLabelOtherThanItsPriorityClassNameIsStillSaidToBeUnread() {
        String other = new String(seed("seed-kueue-and-hotswap.yaml"), java.nio.charset.StandardCharsets.UTF_8)
                .replace("kueue.x-k8s.io/priority-class: low-priority-job", "kueue.x-k8s.io/priority-class: high-priority-job");
        List<DecodedDocument> documents = parser.parse(other.getBytes(java.nio.charset.StandardCharsets.UTF_8), Format.YAML);

        assertThat(documents.get(5).warnings()).singleElement().asString()
                .startsWith("spec.replicatedJobs[0].template.spec.template.metadata.labels.kueue.x-k8s.io/priority-class:"
                        + " on a pod template this label is not read")
                .endsWith("passed to the pods unchanged; it does not affect scheduling");
    }

    @Test
    void seedHotswapsJobSetHasNoQueueName() {
        List<DecodedDocument> documents = parser.parse(seed("seed-hotswap.yaml"), Format.YAML);

        assertThat(documents).hasSize(3);
        var jobSet = (WorkloadManifest) documents.get(2).manifest();
        assertThat(jobSet.name()).isEqualTo("high-jax-trillium");
        assertThat(jobSet.queueName()).isNull();
        assertThat(jobSet.podSets()).singleElement().extracting(WorkloadManifest.PodSetSpec::count).isEqualTo(8);
        assertThat(documents.get(2).warnings()).isEmpty();
    }

    @Test
    void aSeedJobSetAloneIsAWorkloadSubmission() {
        String yaml = new String(seed("seed-hotswap.yaml"), java.nio.charset.StandardCharsets.UTF_8);
        String jobSet = yaml.substring(yaml.indexOf("apiVersion: jobset"));

        DecodedDocument document = parser.parseWorkload(jobSet.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                Format.YAML, "team-a", FieldValidation.Strict);

        assertThat(document.manifest().namespace()).isEqualTo("team-a");
        assertThat(document.manifest().kind()).isEqualTo(Kind.JOB_SET);
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
