package dev.platform.scheduler.kubernetes;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lists paged with {@code limit} and {@code continue}, as kubectl and informers page them: every object once, for a
 * kind whose objects are not named as the rows they come from (the Workload of a JobSet is named
 * {@code jobset-<name>-<hash>}), as plain lists and as kubectl's Tables.
 */
class KubernetesListPagesTest extends PlatformApplicationTest {

    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

    @ParameterizedTest(name = "Accept: {0}")
    @ValueSource(strings = {"application/json", TABLE})
    void theWorkloadsOfJobSetsArePagedThroughEachOnce(String accept) {
        PlatformClient.Response configured = api.postYaml("/api/v1/manifests", queue("pages", "Hold"));
        assertThat(configured.status()).as(configured.body()).isEqualTo(200);
        for (int i = 0; i < 5; i++) {
            PlatformClient.Response submitted = api.postYaml("/api/v1/namespaces/pages/workloads",
                    Manifests.onePodJobSet("a-" + i, Map.of("kueue.x-k8s.io/queue-name", "pages"), Map.of(), "1"));
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        }

        List<String> names = new ArrayList<>();
        String next = null;
        int pages = 0;
        do {
            PlatformClient.Response page = api.get("/k8s/apis/kueue.x-k8s.io/v1beta2/namespaces/pages/workloads?limit=2"
                    + (next == null ? "" : "&continue=" + next), accept);
            assertThat(page.status()).as(page.body()).isEqualTo(200);
            JsonNode list = page.json();
            for (JsonNode item : accept.equals(TABLE) ? list.path("rows") : list.path("items")) {
                names.add(accept.equals(TABLE) ? item.path("cells").path(0).asString()
                        : item.path("metadata").path("name").asString());
            }
            next = list.path("metadata").path("continue").asString(null);
            pages++;
        } while (next != null && pages < 10);

        assertThat(pages).isEqualTo(3);
        assertThat(names).hasSize(5).doesNotHaveDuplicates()
                .allSatisfy(name -> assertThat(name).matches("jobset-a-[0-4]-[0-9a-f]{5}"));
    }

    /**
     * kubectl's Tables leave the objects out, so the platform reads only what the columns need; the cells are the
     * same as those of a Table that carries its objects, read with every status field.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/apis/kueue.x-k8s.io/v1beta2/workloads", "/apis/jobset.x-k8s.io/v1alpha2/jobsets"})
    void aTableWithoutItsObjectsHasTheCellsOfOneWithThem(String resource) {
        PlatformClient.Response submitted = api.postYaml("/api/v1/manifests", queue("cells", "None"));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(200);
        for (int i = 0; i < 3; i++) {
            // one admitted, two waiting behind it (each has a position and may have a forecast)
            assertThat(api.postYaml("/api/v1/namespaces/cells/workloads", Manifests.onePodJobSet("c-" + i,
                    Map.of("kueue.x-k8s.io/queue-name", "cells"), Map.of(), "1")).status()).isEqualTo(201);
        }
        String path = "/k8s" + resource.replace("/workloads", "/namespaces/cells/workloads")
                .replace("/jobsets", "/namespaces/cells/jobsets");

        JsonNode withObjects = api.get(path + "?includeObject=Object", TABLE).json();
        JsonNode columnsOnly = api.get(path, TABLE).json();

        assertThat(columnsOnly.path("rows")).hasSize(3);
        List<String> cells = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        columnsOnly.path("rows").forEach(row -> cells.add(row.path("cells").toString()));
        withObjects.path("rows").forEach(row -> expected.add(row.path("cells").toString()));
        assertThat(cells).isEqualTo(expected);
        assertThat(columnsOnly.path("rows").path(0).path("object").path("kind").asString())
                .isEqualTo("PartialObjectMetadata");
    }

    /** A ClusterQueue of one cpu and its LocalQueue, both named {@code name}, the LocalQueue in namespace {@code name}. */
    private static String queue(String name, String stopPolicy) {
        return """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: %1$s-rf}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %1$s}
                spec:
                  stopPolicy: %2$s
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: %1$s-rf, resources: [{name: cpu, nominalQuota: "1"}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: %1$s, namespace: %1$s}
                spec: {clusterQueue: %1$s}
                """.formatted(name, stopPolicy);
    }
}
