package dev.platform.scheduler.console;

import dev.platform.scheduler.performance.PerformanceResults;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Console benchmark: with 100,000 workloads and 1,000,000
 * preemption events in PostgreSQL, how long each page takes to render on the server. A benchmark,
 * not a timed test: it reports percentiles and asserts only that the pages rendered. Not run by
 * {@code ./mvnw verify} (its name does not match the test includes); run it with
 * {@code ./mvnw -pl platform-scheduler -am test -Dtest=ConsoleRenderBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * Its own database; the scheduling loop is off so the numbers are the pages' alone.
 */
@PlatformIntegrationTest
@TestPropertySource(properties = {"platform.test.database=console_benchmark", "platform.scheduler.enabled=false"})
class ConsoleRenderBenchmark {

    private static final int WORKLOADS = 100_000;
    private static final int PREEMPTIONS = 1_000_000;
    private static final int QUEUES = 100;
    private static final int WARMUP = 5;
    private static final int SAMPLES = 40;

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Test
    void renderPercentilesAtScale() {
        PlatformClient api = new PlatformClient(port);
        seed(api);

        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("overview", "/");
        pages.put("queues", "/queues");
        pages.put("queue", "/queues/cq-7");
        pages.put("workload", "/namespaces/team-7/workloads/w-7");
        pages.put("preemptions", "/preemptions");
        pages.put("preemptions filtered", "/preemptions?clusterQueue=cq-7&reason=InClusterQueue");
        pages.put("teams", "/teams?namespace=team-7");
        pages.put("configuration", "/configuration");
        pages.put("hotswaps", "/hotswaps");
        pages.put("node pools", "/nodepools");

        StringBuilder report = new StringBuilder(String.format("%-22s %8s %8s %8s%n", "page", "p50 ms", "p95 ms", "max ms"));
        Map<String, Object> p95ByPage = new LinkedHashMap<>();
        for (Map.Entry<String, String> page : pages.entrySet()) {
            PlatformClient.Response first = api.get(page.getValue(), "text/html");
            if (first.status() == 404) {
                report.append(String.format("%-22s %s%n", page.getKey(), "(no such page)"));
                continue;
            }
            assertThat(first.status()).as(page.getValue()).isEqualTo(200);
            for (int i = 0; i < WARMUP; i++) {
                api.get(page.getValue(), "text/html");
            }
            List<Double> millis = new ArrayList<>();
            for (int i = 0; i < SAMPLES; i++) {
                long start = System.nanoTime();
                PlatformClient.Response response = api.get(page.getValue(), "text/html");
                millis.add((System.nanoTime() - start) / 1e6);
                assertThat(response.status()).isEqualTo(200);
            }
            Collections.sort(millis);
            p95ByPage.put(page.getKey(), millis.get((int) Math.ceil(SAMPLES * 0.95) - 1));
            report.append(String.format("%-22s %8.1f %8.1f %8.1f%n", page.getKey(), millis.get(SAMPLES / 2),
                    millis.get((int) Math.ceil(SAMPLES * 0.95) - 1), millis.get(SAMPLES - 1)));
        }
        System.out.println("Console server render times with " + WORKLOADS + " workloads and " + PREEMPTIONS
                + " preemption events (" + SAMPLES + " samples per page, HTTP on loopback):\n" + report);
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("renderP95Millis", p95ByPage.values().stream().mapToDouble(v -> (Double) v).max().orElseThrow());
        figures.put("p95MillisByPage", p95ByPage);
        figures.put("data", WORKLOADS + " workloads, " + PREEMPTIONS + " preemption events, " + QUEUES + " ClusterQueues");
        PerformanceResults.record("console", figures);
    }

    private void seed(PlatformClient api) {
        jdbc.sql("TRUNCATE workload, workload_usage, workload_event, preemption_event CASCADE").update();
        StringBuilder manifests = new StringBuilder("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: default}
                """);
        for (int q = 0; q < QUEUES; q++) {
            manifests.append("""
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: ClusterQueue
                    metadata: {name: cq-%d}
                    spec:
                      cohort: cohort-%d
                      resourceGroups:
                      - coveredResources: [cpu]
                        flavors: [{name: default, resources: [{name: cpu, nominalQuota: "100"}]}]
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: LocalQueue
                    metadata: {name: lq, namespace: team-%d}
                    spec: {clusterQueue: cq-%d}
                    """.formatted(q, q / 10, q, q));
        }
        assertThat(api.postYaml("/api/v1/manifests", manifests.toString()).status()).isEqualTo(200);
        jdbc.sql("""
                INSERT INTO workload (uid, namespace, name, kind, queue_name, cluster_queue, priority, state, manifest,
                                      pod_sets, admission, queue_timestamp, created_at, admitted_at)
                SELECT gen_random_uuid(), 'team-' || (i % 100), 'w-' || i, 'Job', 'lq', 'cq-' || (i % 100), i % 7,
                       CASE WHEN i % 10 = 0 THEN 'Admitted' ELSE 'Pending' END,
                       jsonb_build_object('apiVersion', 'batch/v1', 'kind', 'Job', 'metadata', jsonb_build_object('name', 'w-' || i)),
                       '[{"name":"main","count":1,"minCount":null,"requests":{"cpu":"1"},"nodeSelector":{},"requiredNodeAffinity":[],"tolerations":[],"replicas":1,"podsPerReplica":1}]'::jsonb,
                       CASE WHEN i % 10 = 0 THEN jsonb_build_object('clusterQueue', 'cq-' || (i % 100), 'podSetAssignments',
                            jsonb_build_array(jsonb_build_object('name', 'main', 'count', 1, 'flavors', jsonb_build_object('cpu', 'default'),
                            'resourceUsage', jsonb_build_object('cpu', '1'), 'nodePools', '[]'::jsonb))) END,
                       now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval,
                       CASE WHEN i % 10 = 0 THEN now() END
                FROM generate_series(0, ? - 1) AS i""").param(WORKLOADS).update();
        jdbc.sql("""
                INSERT INTO workload_usage (workload_uid, cluster_queue, flavor, resource, amount)
                SELECT uid, cluster_queue, 'default', 'cpu', 1 FROM workload WHERE state = 'Admitted'""").update();
        jdbc.sql("""
                INSERT INTO preemption_event (at, reason, message, preemptor_uid, preemptor_namespace, preemptor_name,
                    preemptor_cluster_queue, preemptor_priority, victim_uid, victim_namespace, victim_name,
                    victim_cluster_queue, victim_priority)
                SELECT now() - (i || ' seconds')::interval,
                       (ARRAY['InClusterQueue','InCohortReclamation','InCohortReclaimWhileBorrowing','Hotswap'])[1 + i % 4],
                       'Preempted to accommodate a workload', gen_random_uuid(), 'team-' || (i % 100), 'p-' || i,
                       'cq-' || (i % 100), 5, gen_random_uuid(), 'team-' || ((i + 1) % 100), 'v-' || i,
                       'cq-' || ((i + 1) % 100), 1
                FROM generate_series(1, ?) AS i""").param(PREEMPTIONS).update();
        // what autovacuum does to a table after a bulk load: statistics and the visibility map
        // (index-only scans for the per-queue counts)
        jdbc.sql("VACUUM ANALYZE workload").update();
        jdbc.sql("VACUUM ANALYZE preemption_event").update();
        jdbc.sql("VACUUM ANALYZE workload_usage").update();
    }
}
