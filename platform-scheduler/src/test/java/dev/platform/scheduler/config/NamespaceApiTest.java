package dev.platform.scheduler.config;

import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The core v1 Namespace kind through {@code POST /manifests} and {@code /namespaces[/{name}]}, on real PostgreSQL. */
class NamespaceApiTest extends PlatformApplicationTest {

    private static final String ML = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: ml
              labels: {team: ml}
            """;

    @Test
    void aNamespaceIsCreatedThenUnchangedThenUpdatedAndEveryChangeIsAudited() {
        Response created = api.postYaml("/api/v1/manifests", ML);
        Response again = api.postYaml("/api/v1/manifests", ML);
        Response relabelled = api.postYaml("/api/v1/manifests", ML.replace("{team: ml}", "{team: ml, tier: gold}"));

        assertThat(created.status()).as(created.body()).isEqualTo(200);
        assertThat(created.json().at("/results/0/kind").asString()).isEqualTo("Namespace");
        assertThat(created.json().at("/results/0/namespace").isNull()).isTrue();
        assertThat(created.json().at("/results/0/name").asString()).isEqualTo("ml");
        assertThat(actions(created, again, relabelled)).containsExactly("created", "unchanged", "updated");
        assertThat(labels(api.get("/api/v1/namespaces/ml").json())).isEqualTo(
                Map.of("team", "ml", "tier", "gold", "kubernetes.io/metadata.name", "ml"));
        assertThat(jdbc.sql("SELECT generation FROM namespace WHERE name = 'ml'").query(Long.class).single())
                .isEqualTo(2);
        List<Map<String, Object>> audit = jdbc.sql("""
                SELECT action, spec_before #>> '{labels,tier}' AS before, spec_after #>> '{labels,tier}' AS after
                FROM config_audit WHERE kind = 'Namespace' AND name = 'ml' ORDER BY id""").query().listOfRows();
        assertThat(audit).extracting(row -> row.get("action") + ":" + row.get("before") + "->" + row.get("after"))
                .containsExactly("created:null->null", "updated:null->gold");
    }

    @Test
    void namespacesAreListedByNameAndAnAbsentOneIsA404Problem() {
        api.postYaml("/api/v1/manifests", ML + "---\n" + ML.replace("ml", "web"));

        Response list = api.get("/api/v1/namespaces");
        Response absent = api.get("/api/v1/namespaces/nope");

        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().get("items").valueStream().map(n -> n.get("name").asString() + "=" + labels(n).get("team")))
                .containsExactly("ml=ml", "web=web");
        assertThat(absent.status()).isEqualTo(404);
        assertThat(absent.contentType()).startsWith("application/problem+json");
        assertThat(absent.json().get("detail").asString()).contains("Namespace").contains("nope");
    }

    @Test
    void aDryRunOrARejectedRequestWritesNoNamespace() {
        Map<String, String> before = DatabaseCleaner.contentDigest(jdbc);

        Response dryRun = api.postYaml("/api/v1/manifests?dryRun=true", ML);
        Response rejected = api.postYaml("/api/v1/manifests", ML + "---\n" + ML.replace("name: ml", "name: Bad_Name"));

        assertThat(dryRun.json().at("/results/0/action").asString()).isEqualTo("created");
        assertThat(rejected.status()).isEqualTo(422);
        assertThat(rejected.json().at("/errors/0/document").asInt()).isEqualTo(1);
        assertThat(rejected.json().at("/errors/0/path").asString()).isEqualTo("metadata.name");
        assertThat(DatabaseCleaner.contentDigest(jdbc)).isEqualTo(before);
        assertThat(api.get("/api/v1/namespaces/ml").status()).isEqualTo(404);
    }

    @Test
    void aKubernetesListInJsonIsAcceptedToo() {
        Response response = api.post("/api/v1/manifests", "application/json", """
                {"apiVersion": "v1", "kind": "List", "items": [
                  {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ml", "labels": {"team": "ml"}},
                   "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}}]}""");

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.json().at("/results/0/warnings/0").asString()).startsWith("spec: ");
        assertThat(labels(api.get("/api/v1/namespaces/ml").json())).containsEntry("team", "ml");
    }

    /**
     * A Namespace here is a label source only: LocalQueues and workloads live in namespaces without one, so
     * deleting it leaves them where they are.
     */
    @Test
    void deletingANamespaceThatQueuesAndWorkloadsLiveInIsAllowedAndKeepsThem() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never"));
        api.postYaml("/api/v1/manifests", ML.replace("ml", "team-a"));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("train", "lq", "1", null));

        Response deleted = api.delete("/api/v1/namespaces/team-a");

        assertThat(deleted.status()).isEqualTo(204);
        assertThat(api.get("/api/v1/namespaces/team-a").status()).isEqualTo(404);
        assertThat(api.delete("/api/v1/namespaces/team-a").status()).isEqualTo(404);
        assertThat(api.get("/api/v1/namespaces/team-a/localqueues/lq").status()).isEqualTo(200);
        assertThat(api.get("/api/v1/namespaces/team-a/localqueues").json().get("items")).hasSize(1);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/train").status()).isEqualTo(200);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads").json().get("items")).hasSize(1);
        assertThat(jdbc.sql("""
                SELECT spec_before #>> '{labels,team}' FROM config_audit
                WHERE kind = 'Namespace' AND action = 'deleted'""").query(String.class).single()).isEqualTo("team-a");
    }

    @Test
    void aThousandNamespacesApplyInOneRequestAndReadBackInOneList() {
        String body = IntStream.range(0, 1000)
                .mapToObj(i -> ML.replace("name: ml", "name: ns-" + i).replace("team: ml", "team: t" + i % 7))
                .collect(Collectors.joining("---\n"));

        Response response = api.postYaml("/api/v1/manifests", body);

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(response.json().get("results")).hasSize(1000);
        assertThat(api.get("/api/v1/namespaces").json().get("items")).hasSize(1000);
        assertThat(api.postYaml("/api/v1/manifests", body).json().get("results").valueStream()
                .map(r -> r.get("action").asString())).containsOnly("unchanged");
    }

    private static List<String> actions(Response... responses) {
        return java.util.Arrays.stream(responses).map(r -> r.json().at("/results/0/action").asString()).toList();
    }

    private static Map<String, String> labels(JsonNode namespace) {
        return namespace.get("labels").properties().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().asString()));
    }
}
