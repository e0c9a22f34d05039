package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A large valid request: measured, not timed (benchmarks are not timed tests), and decoded in full. */
class ManyDocumentsTest {

    private static final int QUEUES = 500;

    @Test
    void fiveHundredClusterQueuesDecodeInOneRequest() {
        StringBuilder yaml = new StringBuilder();
        for (int i = 0; i < QUEUES; i++) {
            yaml.append("""
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta2
                    kind: ClusterQueue
                    metadata:
                      name: team-%d
                    spec:
                      cohortName: research
                      preemption: {withinClusterQueue: LowerPriority, reclaimWithinCohort: Any}
                      resourceGroups:
                      - coveredResources: [cpu, memory, google.com/tpu]
                        flavors:
                        - name: tpu-v6e-slice
                          resources:
                          - {name: cpu, nominalQuota: 96}
                          - {name: memory, nominalQuota: 384Gi}
                          - {name: google.com/tpu, nominalQuota: 32, borrowingLimit: 16, lendingLimit: 8}
                    """.formatted(i));
        }
        byte[] body = yaml.toString().getBytes(StandardCharsets.UTF_8);
        var parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

        // Warm-up: the first runs measure the JIT, not the parser.
        for (int i = 0; i < 5; i++) {
            parser.parse(body, Format.YAML);
        }
        long start = System.nanoTime();
        List<DecodedDocument> documents = parser.parse(body, Format.YAML);
        long micros = (System.nanoTime() - start) / 1_000;

        System.out.printf("%d ClusterQueues, %d bytes: parsed and validated in %d ms (after warm-up)%n",
                QUEUES, body.length, micros / 1_000);
        assertThat(documents).hasSize(QUEUES);
        assertThat(documents.get(QUEUES - 1).manifest()).isInstanceOfSatisfying(ClusterQueueManifest.class,
                q -> assertThat(q.name()).isEqualTo("team-" + (QUEUES - 1)));
        assertThat(documents).allSatisfy(d -> assertThat(d.warnings()).isEmpty());
    }
}
