package dev.platform.scheduler.kubernetes.handlers;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The fields a manager owns: paths of keys, labels' and annotations' dotted keys kept whole. */
class FieldManagersTest {

    private static final Map<String, Object> JOB_SET = Map.of(
            "apiVersion", "jobset.x-k8s.io/v1alpha2", "kind", "JobSet",
            "metadata", Map.of("name", "j", "labels", Map.of("kueue.x-k8s.io/queue-name", "lq")),
            "spec", Map.of("suspend", true),
            "status", Map.of("restarts", 0));

    @Test
    void aLabelsDottedKeyIsOneKeyOfItsPath() {
        assertThat(FieldManagers.fields(JOB_SET)).containsExactlyInAnyOrder(
                ".metadata.labels.kueue\\.x-k8s\\.io/queue-name", ".spec.suspend");

        assertThat(FieldManagers.segments(".metadata.labels.kueue\\.x-k8s\\.io/queue-name"))
                .containsExactly("metadata", "labels", "kueue.x-k8s.io/queue-name");
        assertThat(FieldManagers.valueAt(JOB_SET, ".metadata.labels.kueue\\.x-k8s\\.io/queue-name")).isEqualTo("lq");
        assertThat(FieldManagers.valueAt(JOB_SET, ".spec.suspend")).isEqualTo(true);
        assertThat(FieldManagers.fieldsV1(FieldManagers.fields(JOB_SET))).isEqualTo(Map.of(
                "f:metadata", Map.of("f:labels", Map.of("f:kueue.x-k8s.io/queue-name", Map.of())),
                "f:spec", Map.of("f:suspend", Map.of())));
    }
}
