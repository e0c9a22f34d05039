package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Workload's priority class as each of Kueue's versions names it: v1beta1 with {@code priorityClassName} and
 * {@code priorityClassSource}, v1beta2 with {@code priorityClassRef} (group, kind, name), for a class given by
 * Kueue's label (a WorkloadPriorityClass) and one given in the pod template (a pod PriorityClass).
 */
class WorkloadPriorityVersionsTest extends PlatformApplicationTest {

    @BeforeEach
    void classesAndAQueue() {
        PlatformClient.Response configured = api.postYaml("/api/v1/manifests", Manifests.queue("cq", "8", "Never") + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: urgent}
                value: 1000
                ---
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: batch-low}
                value: 10
                """);
        assertThat(configured.status()).as(configured.body()).isEqualTo(200);
    }

    @Test
    void aWorkloadPriorityClassFromKueuesLabel() {
        submit(Manifests.onePodJobSet("labelled", Map.of("kueue.x-k8s.io/queue-name", "lq",
                "kueue.x-k8s.io/priority-class", "urgent"), Map.of(), "1"));

        JsonNode v1beta1 = workloadSpec("v1beta1");
        assertThat(v1beta1.get("priorityClassName").asString()).isEqualTo("urgent");
        assertThat(v1beta1.get("priorityClassSource").asString()).isEqualTo("kueue.x-k8s.io/workloadpriorityclass");
        assertThat(v1beta1.has("priorityClassRef")).isFalse();
        JsonNode v1beta2 = workloadSpec("v1beta2");
        assertThat(v1beta2.get("priorityClassRef").toString())
                .isEqualTo("{\"group\":\"kueue.x-k8s.io\",\"kind\":\"WorkloadPriorityClass\",\"name\":\"urgent\"}");
        assertThat(v1beta2.has("priorityClassName")).isFalse();
        assertThat(v1beta2.has("priorityClassSource")).isFalse();
        assertThat(v1beta2.get("priority").asInt()).isEqualTo(1000);
    }

    @Test
    void aPodPriorityClassFromThePodTemplate() {
        submit(Manifests.job("templated", "lq", "1", "batch-low"));

        assertThat(workloadSpec("v1beta1").get("priorityClassSource").asString())
                .isEqualTo("scheduling.k8s.io/priorityclass");
        assertThat(workloadSpec("v1beta2").get("priorityClassRef").toString())
                .isEqualTo("{\"group\":\"scheduling.k8s.io\",\"kind\":\"PriorityClass\",\"name\":\"batch-low\"}");
    }

    private void submit(String manifest) {
        PlatformClient.Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", manifest);
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    }

    /** The only Workload of team-a, read in {@code version}, in a list and alone. */
    private JsonNode workloadSpec(String version) {
        PlatformClient.Response list = api.get("/k8s/apis/kueue.x-k8s.io/" + version + "/namespaces/team-a/workloads");
        assertThat(list.status()).as(list.body()).isEqualTo(200);
        JsonNode item = list.json().get("items").get(0);
        PlatformClient.Response one = api.get("/k8s/apis/kueue.x-k8s.io/" + version + "/namespaces/team-a/workloads/"
                + item.at("/metadata/name").asString());
        assertThat(one.json().get("spec")).isEqualTo(item.get("spec"));
        return item.get("spec");
    }
}
