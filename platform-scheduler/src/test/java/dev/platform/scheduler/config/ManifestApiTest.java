package dev.platform.scheduler.config;

import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code POST /api/v1/manifests} and the configuration reads, against real PostgreSQL. */
class ManifestApiTest extends PlatformApplicationTest {

    private static final String FLAVOR = """
            apiVersion: kueue.x-k8s.io/v1beta1
            kind: ResourceFlavor
            metadata:
              name: tpu-v6e-slice
            spec:
              nodeLabels:
                cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice
            """;


    @Test
    void seedKueueManifestIsCreatedWithTheReclaimOutOfCohortWarningThenUnchanged() {
        Response first = api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml"));

        assertThat(first.status()).isEqualTo(200);
        JsonNode results = first.json().get("results");
        assertThat(results).hasSize(3);
        assertThat(results.valueStream().map(r -> r.get("kind").asString() + "/" + r.get("name").asString()))
                .containsExactly("ResourceFlavor/tpu-v6e-slice", "ClusterQueue/tpu-training-cq",
                        "LocalQueue/default-queue");
        assertThat(results.valueStream().map(r -> r.get("action").asString())).containsOnly("created");
        JsonNode queueWarnings = results.get(1).get("warnings");
        assertThat(queueWarnings.valueStream().map(JsonNode::asString)).as("only the warning that matters")
                .singleElement().satisfies(w -> assertThat(w).contains("reclaimOutOfCohort").contains("not a Kueue field"));
        assertThat(results.get(0).has("warnings") && !results.get(0).get("warnings").isEmpty()).isFalse();
        assertThat(results.get(2).has("warnings") && !results.get(2).get("warnings").isEmpty()).isFalse();
        assertThat(results.get(2).get("namespace").asString()).isEqualTo("default");

        Response second = api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml"));

        assertThat(second.status()).isEqualTo(200);
        assertThat(second.json().get("results").valueStream().map(r -> r.get("action").asString()))
                .containsOnly("unchanged");
        assertThat(jdbc.sql("SELECT count(*) FROM config_audit").query(Long.class).single()).isEqualTo(3);
    }

    @Test
    void clusterQueueShowsItsQuotaPerFlavorAndResource() {
        api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml"));

        Response queue = api.get("/api/v1/clusterqueues/tpu-training-cq");

        assertThat(queue.status()).isEqualTo(200);
        JsonNode flavor = queue.json().at("/spec/resourceGroups/0/flavors/0");
        assertThat(flavor.get("name").asString()).isEqualTo("tpu-v6e-slice");
        assertThat(flavor.at("/resources/0/name").asString()).isEqualTo("google.com/tpu");
        assertThat(flavor.at("/resources/0/nominalQuota").asString()).isEqualTo("32");
        assertThat(queue.json().at("/spec/queueingStrategy").asString()).isEqualTo("BestEffortFIFO");
        assertThat(queue.json().at("/status/active").asBoolean()).isTrue();
        assertThat(jdbc.sql("SELECT nominal_quota FROM cluster_queue_quota WHERE cluster_queue = 'tpu-training-cq'")
                .query(java.math.BigDecimal.class).single()).isEqualByComparingTo("32");
    }

    @Test
    void changingAQuotaIsAnUpdateAndIsAudited() {
        api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml"));
        String bigger = SeedManifests.read("seed-kueue.yaml").replace("nominalQuota: 32", "nominalQuota: 64");

        Response response = api.postYaml("/api/v1/manifests", bigger);

        assertThat(response.json().get("results").valueStream().map(r -> r.get("action").asString()))
                .containsExactly("unchanged", "updated", "unchanged");
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json()
                .at("/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota").asString()).isEqualTo("64");
        Map<String, Object> audit = jdbc.sql("""
                SELECT action, spec_before #>> '{resourceGroups,0,flavors,0,resources,0,nominalQuota}' AS before,
                       spec_after #>> '{resourceGroups,0,flavors,0,resources,0,nominalQuota}' AS after
                FROM config_audit WHERE kind = 'ClusterQueue' ORDER BY id DESC LIMIT 1""").query().singleRow();
        assertThat(audit).containsEntry("action", "updated").containsEntry("before", "32").containsEntry("after", "64");
    }

    @Test
    void dryRunReportsTheOutcomeAndWritesNothing() {
        Map<String, String> before = DatabaseCleaner.contentDigest(jdbc);

        Response response = api.postYaml("/api/v1/manifests?dryRun=true", SeedManifests.read("seed-kueue.yaml"));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("dryRun").asBoolean()).isTrue();
        assertThat(response.json().get("results").valueStream().map(r -> r.get("action").asString()))
                .containsOnly("created");
        assertThat(DatabaseCleaner.contentDigest(jdbc)).isEqualTo(before);
        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").status()).isEqualTo(404);
    }

    @Test
    void queueNamingAMissingFlavorIsInactiveUntilTheFlavorAppears() {
        String queueOnly = SeedManifests.read("seed-kueue.yaml").split("---")[1];
        Response applied = api.postYaml("/api/v1/manifests", queueOnly);

        String warning = "spec.resourceGroups[0].flavors[0].name: ResourceFlavor \"tpu-v6e-slice\" not found;"
                + " the ClusterQueue admits nothing (inactive, FlavorNotFound) until it is applied";
        assertThat(applied.status()).isEqualTo(200);
        assertThat(applied.json().at("/results/0/warnings").valueStream().map(JsonNode::asString)).contains(warning);
        assertThat(applied.headers().allValues("Warning"))
                .contains("299 - \"ClusterQueue tpu-training-cq: " + warning.replace("\"", "\\\"") + "\"");

        JsonNode inactive = api.get("/api/v1/clusterqueues/tpu-training-cq").json().get("status");
        assertThat(inactive.get("active").asBoolean()).isFalse();
        assertThat(inactive.get("reason").asString()).isEqualTo("FlavorNotFound");
        assertThat(inactive.get("message").asString()).contains("tpu-v6e-slice");

        api.postYaml("/api/v1/manifests", FLAVOR);

        JsonNode active = api.get("/api/v1/clusterqueues/tpu-training-cq").json().get("status");
        assertThat(active.get("active").asBoolean()).isTrue();
    }

    @Test
    void aLocalQueueNamingAMissingClusterQueueAppliesWithAWarningAndNoneWhenBothComeTogether() {
        String localQueue = SeedManifests.read("seed-kueue.yaml").split("---")[2];

        Response alone = api.postYaml("/api/v1/manifests", localQueue);

        assertThat(alone.status()).isEqualTo(200);
        String warning = "spec.clusterQueue: ClusterQueue \"tpu-training-cq\" not found; workloads submitted to the"
                + " LocalQueue wait until it is applied";
        assertThat(alone.json().at("/results/0/warnings").valueStream().map(JsonNode::asString)).containsExactly(warning);
        assertThat(alone.headers().allValues("Warning")).containsExactly(
                "299 - \"LocalQueue default/default-queue: " + warning.replace("\"", "\\\"") + "\"");

        Response together = api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml"));

        assertThat(together.json().get("results").valueStream().flatMap(r -> r.path("warnings").valueStream())
                .map(JsonNode::asString)).noneMatch(w -> w.contains("not found"));
    }

    @Test
    void referencedObjectsCannotBeDeletedAndSayWhatReferencesThem() {
        api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml"));

        Response flavor = api.delete("/api/v1/resourceflavors/tpu-v6e-slice");
        Response queue = api.delete("/api/v1/clusterqueues/tpu-training-cq");

        assertThat(flavor.status()).isEqualTo(409);
        assertThat(flavor.contentType()).startsWith("application/problem+json");
        assertThat(flavor.json().get("detail").asString()).contains("ClusterQueue tpu-training-cq");
        assertThat(queue.status()).isEqualTo(409);
        assertThat(queue.json().get("detail").asString()).contains("LocalQueue default/default-queue");

        assertThat(api.delete("/api/v1/namespaces/default/localqueues/default-queue").status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/clusterqueues/tpu-training-cq").status()).isEqualTo(204);
        assertThat(api.delete("/api/v1/resourceflavors/tpu-v6e-slice").status()).isEqualTo(204);
        assertThat(api.get("/api/v1/clusterqueues").json().get("items")).isEmpty();
        assertThat(jdbc.sql("SELECT count(*) FROM config_audit WHERE action = 'deleted'").query(Long.class).single())
                .isEqualTo(3);
    }

    @Test
    void unknownObjectsAre404ProblemDetails() {
        Response response = api.get("/api/v1/clusterqueues/nope");

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().get("detail").asString()).contains("nope");
        assertThat(api.delete("/api/v1/resourceflavors/nope").status()).isEqualTo(404);
    }

    @Test
    void jsonBodiesAreAcceptedToo() {
        String json = """
                {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "ClusterQueue",
                 "metadata": {"name": "team-a"},
                 "spec": {"cohortName": "research", "resourceGroups": [{"coveredResources": ["cpu"],
                   "flavors": [{"name": "default", "resources": [{"name": "cpu", "nominalQuota": "500m",
                     "borrowingLimit": "2", "lendingLimit": "250m"}]}]}]}}""";

        Response response = api.post("/api/v1/manifests", "application/json", json);

        assertThat(response.status()).isEqualTo(200);
        JsonNode queue = api.get("/api/v1/clusterqueues/team-a").json();
        assertThat(queue.at("/spec/cohort").asString()).isEqualTo("research");
        assertThat(queue.at("/spec/resourceGroups/0/flavors/0/resources/0/lendingLimit").asString()).isEqualTo("250m");
        JsonNode cohorts = api.get("/api/v1/cohorts").json().get("items");
        assertThat(cohorts).hasSize(1);
        assertThat(cohorts.get(0).get("implicit").asBoolean()).isTrue();
        assertThat(cohorts.get(0).get("clusterQueues").valueStream().map(JsonNode::asString))
                .containsExactly("team-a");
        assertThat(jdbc.sql("SELECT lending_limit FROM cluster_queue_quota").query(java.math.BigDecimal.class).single())
                .isEqualByComparingTo("0.25");
    }

    @Test
    void priorityClassesOfBothKindsAreListed() {
        api.postYaml("/api/v1/manifests", SeedManifests.read("seed-hotswap.yaml").split("---\napiVersion: jobset")[0]);
        api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata:
                  name: sample-priority
                value: 10000
                description: "Sample priority"
                """);

        List<String> classes = api.get("/api/v1/priorityclasses").json().get("items").valueStream()
                .map(c -> c.get("name").asString() + "=" + c.get("value").asInt()).toList();
        assertThat(classes).containsExactly("high-priority-job=2000000", "low-priority-job=1000000");
        assertThat(api.get("/api/v1/workloadpriorityclasses/sample-priority").json().get("value").asInt())
                .isEqualTo(10000);
    }

    @Test
    void unsupportedContentTypeIs415ProblemDetail() {
        Response response = api.post("/api/v1/manifests", "application/xml", "<x/>");

        assertThat(response.status()).isEqualTo(415);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().has("errors")).isTrue();
    }
}
