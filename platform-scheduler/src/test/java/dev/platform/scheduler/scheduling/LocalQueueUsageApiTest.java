package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.config.LocalQueueUsageStore;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.testsupport.AdmissionFairSharingContext;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Admission fair sharing through the running application: the usage the leader records for each LocalQueue is
 * stored, shown by the REST API as Kueue's LocalQueue status shows it, and orders the queue again after the state
 * is rebuilt from the database (what a restart or a new leader does).
 */
@AdmissionFairSharingContext
class LocalQueueUsageApiTest extends PlatformApplicationTest {

    private static final String CONFIGURATION = """
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ResourceFlavor
            metadata: {name: default}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: ClusterQueue
            metadata: {name: shared}
            spec:
              namespaceSelector: {}
              admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
              resourceGroups:
              - coveredResources: [cpu]
                flavors:
                - name: default
                  resources: [{name: cpu, nominalQuota: 4}]
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: LocalQueue
            metadata: {name: busy, namespace: default}
            spec: {clusterQueue: shared}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: LocalQueue
            metadata: {name: quiet, namespace: default}
            spec: {clusterQueue: shared, fairSharing: {weight: "2"}}
            ---
            apiVersion: kueue.x-k8s.io/v1beta2
            kind: WorkloadPriorityClass
            metadata: {name: high}
            value: 100
            """;

    @Autowired
    LocalQueueUsageStore store;

    @BeforeEach
    void sharedQueueWithTwoLocalQueues() {
        assertThat(api.postYaml("/api/v1/manifests", CONFIGURATION).status()).isEqualTo(200);
    }

    @Test
    void anAdmissionIsChargedToItsLocalQueueStoredAndShownAsKueuesLocalQueueStatus() {
        submit("busy", "first", null, "4");
        await().atMost(Duration.ofSeconds(20)).until(() -> state("first").equals("Admitted"));

        JsonNode status = await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/default/localqueues/busy").json()
                        .at("/status/fairSharing/admissionFairSharingStatus"),
                s -> !s.isMissingNode() && s.at("/consumedResources/cpu").isString());
        Map<String, Double> stored = store.all().stream().filter(u -> u.name().equals("busy")).findFirst()
                .orElseThrow().consumedResources();

        // The entry penalty of one sampling interval: 4 cpu * (1 - 0.5^(5m / 1h)), settled with the next cycle.
        assertThat(stored.get("cpu")).isGreaterThanOrEqualTo(4000 * (1 - Math.pow(0.5, 5.0 / 60)));
        assertThat(status.at("/consumedResources/cpu").asString())
                .isEqualTo(Math.round(stored.get("cpu")) + "m");
        assertThat(Instant.parse(status.at("/lastUpdate").asString())).isBeforeOrEqualTo(Instant.now());
        JsonNode quiet = api.get("/api/v1/namespaces/default/localqueues/quiet").json();
        assertThat(quiet.at("/fairSharing/weight").asString()).isEqualTo("2");
        assertThat(api.get("/api/v1/localqueues").json().get("items")).extracting(q -> q.get("name").asString())
                .containsExactly("busy", "quiet");
    }

    @Test
    void theStoredUsageOrdersTheQueueAndItsPositionsAndSurvivesARebuildOfTheState() {
        submit("busy", "holder", null, "4");
        await().atMost(Duration.ofSeconds(20)).until(() -> state("holder").equals("Admitted"));
        loop.quiesced(() -> store.write(List.of(
                new LocalQueueUsage("default", "busy", Map.of("cpu", 16_000.0), Instant.now()),
                new LocalQueueUsage("default", "quiet", Map.of("cpu", 2_000.0), Instant.now())))).join();

        submit("busy", "busy-high", "high", "4");
        submit("quiet", "quiet-low", null, "4");
        List<String> usageFirst = List.of("quiet-low", "busy-high");

        await("quiet's usage, 2 cpu / weight 2, is below busy's 16").atMost(Duration.ofSeconds(20))
                .until(this::pendingOrder, usageFirst::equals);
        loop.quiesced(() -> { }).join();
        assertThat(api.delete("/api/v1/namespaces/default/workloads/holder").status()).isEqualTo(200);

        await("the state rebuilt from the database admits by the stored usage").atMost(Duration.ofSeconds(20))
                .until(() -> state("quiet-low").equals("Admitted"));
        assertThat(state("busy-high")).isEqualTo("Pending");
        assertThat(api.get("/api/v1/namespaces/default/workloads/busy-high").json().at("/positionInClusterQueue")
                .asInt()).isZero();
        assertThat(api.get("/api/v1/namespaces/default/workloads/busy-high").json().at("/pendingReason/code")
                .asString()).isEqualTo("WaitingForQuota");
    }

    private List<String> pendingOrder() {
        List<String> names = new ArrayList<>();
        api.get("/api/v1/clusterqueues/shared/pendingworkloads").json().get("items")
                .forEach(w -> names.add(w.get("name").asString()));
        return names;
    }

    private String state(String name) {
        return api.get("/api/v1/namespaces/default/workloads/" + name).json().get("state").asString();
    }

    private void submit(String queue, String name, String priorityClass, String cpu) {
        String labels = priorityClass == null ? "" : "\n  labels: {kueue.x-k8s.io/priority-class: " + priorityClass + "}";
        String priority = priorityClass == null ? "" : "\n  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass"
                + "\n  priorityClassName: " + priorityClass;
        assertThat(api.postYaml("/api/v1/namespaces/default/workloads", """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata:
                  name: %s%s
                spec:
                  queueName: %s%s
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers: [{name: c, resources: {requests: {cpu: "%s"}}}]
                """.formatted(name, labels, queue, priority, cpu)).status()).isEqualTo(201);
    }
}
