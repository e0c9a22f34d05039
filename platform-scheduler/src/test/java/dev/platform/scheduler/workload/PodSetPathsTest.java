package dev.platform.scheduler.workload;

import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** A pod set's request is named where its author wrote it. */
class PodSetPathsTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    @Test
    void theOneContainerAskingForTheResourceOrThePodSpecWhenSeveralAddUp() {
        WorkloadManifest jobSet = workload("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: two}
                spec:
                  replicatedJobs:
                  - name: driver
                    template: {spec: {template: {spec: {containers: [{name: d, image: i, resources: {requests: {cpu: "1"}}}]}}}}
                  - name: workers
                    template:
                      spec:
                        template:
                          spec:
                            containers:
                            - {name: sidecar, image: i, resources: {requests: {cpu: "1"}}}
                            - {name: main, image: i, resources: {limits: {google.com/tpu: 4}, requests: {cpu: "2"}}}
                """);

        assertThat(PodSetPaths.request(jobSet, 0, "cpu"))
                .isEqualTo("spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.requests.cpu");
        assertThat(PodSetPaths.request(jobSet, 1, "google.com/tpu"))
                .isEqualTo("spec.replicatedJobs[1].template.spec.template.spec.containers[1].resources.limits.google.com/tpu");
        assertThat(PodSetPaths.request(jobSet, 1, "cpu")).as("two containers add up to the pod's request")
                .isEqualTo("spec.replicatedJobs[1].template.spec.template.spec");
        assertThat(PodSetPaths.named(jobSet, 1)).isEqualTo("replicatedJob workers");
    }

    @Test
    void aWorkloadsPodSetIsItsOwn() {
        WorkloadManifest workload = workload("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w}
                spec:
                  queueName: q
                  podSets:
                  - name: main
                    count: 2
                    template: {spec: {containers: [{name: c, image: i, resources: {requests: {cpu: "3"}}}]}}
                """);

        assertThat(PodSetPaths.request(workload, 0, "cpu"))
                .isEqualTo("spec.podSets[0].template.spec.containers[0].resources.requests.cpu");
        assertThat(PodSetPaths.named(workload, 0)).isEqualTo("pod set main");
    }

    private WorkloadManifest workload(String yaml) {
        return (WorkloadManifest) parser.parseWorkload(yaml.getBytes(StandardCharsets.UTF_8), Format.YAML, "team-a",
                FieldValidation.Strict).manifest();
    }
}
