package dev.platform.scheduler.visibility;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kueue's visibility API as {@code kubectl get --raw} scripts read it. The JSON field names are those of Kueue's
 * apis/visibility/v1beta2/types.go (v0.19), written down here from its json tags: {@code PendingWorkloadsSummary}
 * is TypeMeta (kind, apiVersion), ObjectMeta (metadata) and {@code items}; a {@code PendingWorkload} is ObjectMeta
 * (metadata: name, namespace, creationTimestamp, ownerReferences) and {@code priority}, {@code localQueueName},
 * {@code positionInClusterQueue}, {@code positionInLocalQueue}; an owner reference has apiVersion, kind, name, uid.
 */
class KueueVisibilityApiTest extends PlatformApplicationTest {

    static final String BASE = "/apis/visibility.kueue.x-k8s.io/v1beta2";
    static final Set<String> SUMMARY_FIELDS = Set.of("kind", "apiVersion", "metadata", "items");
    static final Set<String> PENDING_WORKLOAD_FIELDS = Set.of("metadata", "priority", "localQueueName",
            "positionInClusterQueue", "positionInLocalQueue");
    static final Set<String> OBJECT_META_FIELDS = Set.of("name", "namespace", "creationTimestamp", "ownerReferences");
    static final Set<String> OWNER_REFERENCE_FIELDS = Set.of("apiVersion", "kind", "name", "uid");

    @Test
    void pendingWorkloadsOfAClusterQueueAndALocalQueueHaveKueuesShape() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1", "Never") + "---\n"
                + Manifests.priorityClass("high", 100));
        for (String name : List.of("running", "first", "second")) {
            assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads",
                    Manifests.job(name, "lq", "1", name.equals("second") ? "high" : null)).status()).isEqualTo(201);
            if (name.equals("running")) {
                await().until(() -> api.get("/api/v1/namespaces/team-a/workloads/running").json()
                        .get("state").asString().equals("Admitted"));
            }
        }
        await().until(() -> api.get("/api/v1/clusterqueues/cq/pendingworkloads").json().get("items").size() == 2);

        JsonNode summary = ok(BASE + "/clusterqueues/cq/pendingworkloads");
        assertShape(summary);
        assertThat(summary.get("items").valueStream().map(w -> w.at("/metadata/name").asString()))
                .as("queue order: priority first").containsExactly("second", "first");
        JsonNode head = summary.get("items").get(0);
        assertThat(head.get("priority").asInt()).isEqualTo(100);
        assertThat(head.get("localQueueName").asString()).isEqualTo("lq");
        assertThat(head.get("positionInClusterQueue").asInt()).isZero();
        assertThat(head.get("positionInLocalQueue").asInt()).isZero();
        assertThat(head.at("/metadata/namespace").asString()).isEqualTo("team-a");
        assertThat(head.at("/metadata/creationTimestamp").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        assertThat(head.at("/metadata/ownerReferences/0/kind").asString()).isEqualTo("Job");
        assertThat(head.at("/metadata/ownerReferences/0/apiVersion").asString()).isEqualTo("batch/v1");
        assertThat(head.at("/metadata/ownerReferences/0/name").asString()).isEqualTo("second");

        JsonNode paged = ok(BASE + "/clusterqueues/cq/pendingworkloads?offset=1&limit=1");
        assertThat(paged.get("items")).singleElement().satisfies(w -> {
            assertThat(w.at("/metadata/name").asString()).isEqualTo("first");
            assertThat(w.get("positionInClusterQueue").asInt()).isEqualTo(1);
        });

        JsonNode local = ok(BASE + "/namespaces/team-a/localqueues/lq/pendingworkloads?offset=1");
        assertShape(local);
        assertThat(local.get("items")).singleElement().satisfies(w -> {
            assertThat(w.get("positionInLocalQueue").asInt()).isEqualTo(1);
            assertThat(w.get("positionInClusterQueue").asInt()).isEqualTo(1);
        });

        assertThat(api.get(BASE + "/clusterqueues/absent/pendingworkloads").status()).isEqualTo(404);
        assertThat(api.get(BASE + "/namespaces/team-a/localqueues/absent/pendingworkloads").status()).isEqualTo(404);
    }

    @Test
    void aStoppedWorkloadLeavesThePendingList() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1", "Never"));
        for (String name : List.of("running", "waiting")) {
            assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", "1", null))
                    .status()).isEqualTo(201);
            if (name.equals("running")) {
                await().until(() -> api.get("/api/v1/namespaces/team-a/workloads/running").json()
                        .get("state").asString().equals("Admitted"));
            }
        }
        assertThat(api.post("/api/v1/namespaces/team-a/workloads/waiting/stop", "application/json", "").status())
                .isEqualTo(200);
        assertThat(ok(BASE + "/clusterqueues/cq/pendingworkloads").get("items")).isEmpty();
        JsonNode stopped = api.get("/api/v1/namespaces/team-a/workloads/waiting").json();
        assertThat(stopped.get("active").asBoolean()).isFalse();
        assertThat(stopped.at("/pendingReason/code").asString()).isEqualTo("Deactivated");
    }

    private JsonNode ok(String path) {
        Response response = api.get(path);
        assertThat(response.status()).as(path + ": " + response.body()).isEqualTo(200);
        return response.json();
    }

    private static void assertShape(JsonNode summary) {
        assertThat(names(summary)).isEqualTo(new TreeSet<>(SUMMARY_FIELDS));
        assertThat(summary.get("kind").asString()).isEqualTo("PendingWorkloadsSummary");
        assertThat(summary.get("apiVersion").asString()).isEqualTo("visibility.kueue.x-k8s.io/v1beta2");
        for (JsonNode item : summary.get("items")) {
            assertThat(names(item)).isEqualTo(new TreeSet<>(PENDING_WORKLOAD_FIELDS));
            assertThat(OBJECT_META_FIELDS).containsAll(names(item.get("metadata")));
            assertThat(item.get("priority").isInt()).isTrue();
            assertThat(item.get("positionInClusterQueue").isInt()).isTrue();
            assertThat(item.get("positionInLocalQueue").isInt()).isTrue();
            for (JsonNode owner : item.at("/metadata/ownerReferences")) {
                assertThat(names(owner)).isEqualTo(new TreeSet<>(OWNER_REFERENCE_FIELDS));
            }
        }
    }

    private static Set<String> names(JsonNode object) {
        return new TreeSet<>(object.propertyNames());
    }
}
