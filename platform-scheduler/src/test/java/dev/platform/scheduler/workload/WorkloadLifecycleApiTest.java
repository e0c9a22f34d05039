package dev.platform.scheduler.workload;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What may change of a submitted workload and how the API says no; stopping a workload and its queue as an
 * operator would; workloads listed across namespaces.
 */
class WorkloadLifecycleApiTest extends PlatformApplicationTest {

    static final String PATH = "/api/v1/namespaces/team-a/workloads/";

    @Test
    void onlyTheActiveFlagAndThePriorityClassLabelMayChange() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never"));
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("job", "lq", "1", null)).status())
                .isEqualTo(201);

        Response immutable = patch("job", "{\"spec\": {\"parallelism\": 3}}");
        assertThat(immutable.status()).isEqualTo(422);
        assertThat(immutable.json().at("/errors/0/path").asString()).isEqualTo("spec.parallelism");
        Response otherLabel = patch("job", "{\"metadata\": {\"labels\": {\"team\": \"x\"}}}");
        assertThat(otherLabel.status()).isEqualTo(422);
        assertThat(otherLabel.json().at("/errors/0/path").asString()).isEqualTo("metadata.labels.team");
        Response unknownClass = patch("job", "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"nope\"}}}");
        assertThat(unknownClass.status()).as(unknownClass.body()).isEqualTo(422);
        assertThat(unknownClass.body()).contains("WorkloadPriorityClass \\\"nope\\\" not found");
        assertThat(patch("job", "[1, 2]").status()).isEqualTo(400);
        assertThat(api.send("PATCH", PATH + "job", Map.of(), "application/yaml", "spec: {}").status()).isEqualTo(415);
        assertThat(patch("absent", "{\"spec\": {\"active\": false}}").status()).isEqualTo(404);

        assertThat(api.delete(PATH + "job").status()).isEqualTo(200);
        assertThat(api.post(PATH + "job/stop", "application/json", "").status()).as("it has finished").isEqualTo(409);
    }

    @Test
    void aWorkloadAcceptedWithAnUnknownFieldUnderWarnCanStillBeStoppedAndRelabelled() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never") + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: batch-high}
                value: 100
                """);
        String misspelt = Manifests.job("odd", "lq", "1", null).replace("spec:\n  template:",
                "spec:\n  paralelism: 2\n  template:");
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads?fieldValidation=Warn", misspelt);
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);

        Response stopped = api.post(PATH + "odd/stop", "application/json", "");
        assertThat(stopped.status()).as(stopped.body()).isEqualTo(200);
        Response relabelled = patch("odd", "{\"metadata\": {\"labels\": {\"kueue.x-k8s.io/priority-class\": \"batch-high\"}}}");
        assertThat(relabelled.status()).as(relabelled.body()).isEqualTo(200);
        assertThat(relabelled.json().get("priority").asInt()).isEqualTo(100);
    }

    @Test
    void aStoppedWorkloadGivesItsQuotaToTheNextAndWaitsOutsideItsQueueUntilResumed() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1", "Never"));
        submit("first");
        await().until(() -> state("first").equals("Admitted"));
        submit("second");

        JsonNode stopped = api.post(PATH + "first/stop", "application/json", "").json();
        assertThat(stopped.get("active").asBoolean()).isFalse();
        await().until(() -> state("second").equals("Admitted"));
        JsonNode first = api.get(PATH + "first").json();
        assertThat(first.get("state").asString()).isEqualTo("Pending");
        assertThat(first.at("/pendingReason/code").asString()).isEqualTo("Deactivated");
        assertThat(first.get("positionInClusterQueue").isNull()).isTrue();
        assertThat(events("first")).contains("Evicted/Deactivated", "Requeued/Deactivated");
        assertThat(api.get("/api/v1/clusterqueues/cq").json().get("pendingWorkloads").asLong())
                .as("a stopped workload is in no queue").isZero();

        api.post(PATH + "first/resume", "application/json", "");
        await().until(() -> "WaitingForQuota".equals(api.get(PATH + "first").json().at("/pendingReason/code").asString()));
        assertThat(events("first")).contains("Requeued/Reactivated");
        assertThat(api.get(PATH + "first").json().get("positionInClusterQueue").asInt()).isZero();
        assertThat(api.get("/api/v1/clusterqueues/cq").json().get("pendingWorkloads").asLong()).isEqualTo(1);
    }

    @Test
    void stoppingAClusterQueueIsAuditedAsAnApplyByTheCaller() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1", "Never"));
        Response stopped = api.post("/api/v1/clusterqueues/cq/stop?drain=true", "application/json", "");
        assertThat(stopped.status()).isEqualTo(200);
        assertThat(stopped.json().at("/spec/stopPolicy").asString()).isEqualTo("HoldAndDrain");
        assertThat(stopped.json().at("/status/reason").asString()).isEqualTo("Stopped");
        assertThat(api.post("/api/v1/clusterqueues/cq/resume", "application/json", "").json()
                .at("/spec/stopPolicy").asString()).isEqualTo("None");
        assertThat(jdbc.sql("SELECT action || ' by ' || actor || ': ' || (spec_after ->> 'stopPolicy') FROM config_audit"
                        + " WHERE kind = 'ClusterQueue' ORDER BY id").query(String.class).list())
                .containsExactly("created by admin: None", "updated by admin: HoldAndDrain", "updated by admin: None");
        assertThat(api.post("/api/v1/clusterqueues/absent/stop", "application/json", "").status()).isEqualTo(404);
    }

    @Test
    void workloadsAcrossNamespacesArePagedAndFilteredAsInOneNamespace() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1", "Never") + "---\n"
                + Manifests.queue("cq", "1", "Never").replace("team-a", "team-b").split("---\n")[2]);
        submit("a1");
        assertThat(api.postYaml("/api/v1/namespaces/team-b/workloads", Manifests.job("b1", "lq", "1", null)).status())
                .isEqualTo(201);
        submit("a2");

        List<String> names = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = api.get("/api/v1/workloads?limit=1" + (cursor == null ? "" : "&cursor=" + cursor)).json();
            page.get("items").forEach(w -> names.add(w.get("namespace").asString() + "/" + w.get("name").asString()));
            cursor = page.get("next").isNull() ? null : page.get("next").asString();
        } while (cursor != null);
        assertThat(names).containsExactly("team-a/a2", "team-b/b1", "team-a/a1");
        assertThat(api.get("/api/v1/workloads?queue=lq&state=Bogus").status()).isEqualTo(400);
    }

    private void submit(String name) {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", "1", null)).status())
                .isEqualTo(201);
    }

    private Response patch(String name, String body) {
        return api.send("PATCH", PATH + name, Map.of(), "application/merge-patch+json", body);
    }

    private String state(String name) {
        return api.get(PATH + name).json().get("state").asString();
    }

    private List<String> events(String name) {
        List<String> out = new ArrayList<>();
        api.get(PATH + name + "/events").json().get("items")
                .forEach(e -> out.add(e.get("type").asString() + "/" + e.get("reason").asString()));
        return out;
    }
}
