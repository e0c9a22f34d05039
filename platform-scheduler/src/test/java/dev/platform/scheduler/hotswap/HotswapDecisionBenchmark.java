package dev.platform.scheduler.hotswap;

import dev.platform.scheduler.cluster.AgentCalls;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.scheduler.performance.PerformanceResults;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.Manifests;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hotswap benchmark: 1,000 node pools, 10,000 running workloads
 * (1,000 single-slice JobSets holding a pool each, 9,000 without dedicated pools); a pool turns
 * Unhealthy in a DELTA report; measured from just before the report is sent to the hotswap's
 * committed {@code decided_at} (report handling, change detection, replacement and victim
 * search, the decision transaction). The grace period is 0 here so only the platform's own work
 * is measured. A benchmark: it reports percentiles and asserts only that every hotswap happened.
 * Run: {@code ./mvnw -pl platform-scheduler -am test -Dtest=HotswapDecisionBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@TestPropertySource(properties = {"platform.test.database=hotswap_benchmark", "platform.hotswap.grace=0s",
        "platform.agents.staleness=1h"})
class HotswapDecisionBenchmark extends PlatformApplicationTest {

    private static final int POOLS = 1_000;
    private static final int RUNNING = 10_000;
    private static final int FAILURES = 210;
    /** A cluster the tests' agents hold a token for (agent calls need the cluster's own token). */
    private static final String CLUSTER = "prod-1";

    @Test
    void decisionLatencyFromTheUnhealthyReport() {
        AgentCalls agent = new AgentCalls(port);
        assertThat(agent.report(CLUSTER, report(1, ReportKind.FULL, IntStream.range(0, POOLS)
                .mapToObj(i -> pool(i, false)).toList())).status()).isEqualTo(200);
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "1000000", "Never").replace("cpu", "google.com/tpu"));
        seedRunningWorkloads();
        loop.quiesced(() -> { }).join();

        List<Double> millis = new ArrayList<>();
        for (int i = 0; i < FAILURES; i++) {
            int failing = POOLS - 1 - i;
            Instant sent = Instant.now();
            assertThat(agent.report(CLUSTER, report(2 + i, ReportKind.DELTA, List.of(pool(failing, true)))).status())
                    .isEqualTo(200);
            String name = poolName(failing);
            Instant decided = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(
                    () -> jdbc.sql("SELECT decided_at FROM hotswap_event WHERE node_pool = ?").param(name)
                            .query(java.sql.Timestamp.class).optional().map(java.sql.Timestamp::toInstant).orElse(null),
                    d -> d != null);
            millis.add(Duration.between(sent, decided).toNanos() / 1e6);
        }
        long victims = jdbc.sql("SELECT count(*) FROM preemption_event WHERE reason = 'Hotswap'").query(Long.class).single();
        assertThat(victims).isEqualTo(FAILURES);
        List<Double> sorted = new ArrayList<>(millis.subList(10, millis.size()));
        Collections.sort(sorted);
        System.out.printf("hotswap decision with %d pools and %d running workloads, %d failures (first 10 as warm-up):"
                        + " p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n", POOLS, RUNNING, FAILURES,
                sorted.get(sorted.size() / 2), sorted.get((int) (sorted.size() * 0.9)),
                sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1), sorted.get(sorted.size() - 1));
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("decisionP50Millis", sorted.get(sorted.size() / 2));
        figures.put("decisionP90Millis", sorted.get((int) (sorted.size() * 0.9)));
        figures.put("decisionP99Millis", sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1));
        figures.put("maxMillis", sorted.get(sorted.size() - 1));
        figures.put("data", POOLS + " pools, " + RUNNING + " running workloads, " + sorted.size() + " hotswaps measured");
        PerformanceResults.record("hotswap", figures);
    }

    /** Pools 0..999 are held by JobSets of priority = pool index; 9,000 more workloads hold no pool. */
    private void seedRunningWorkloads() {
        jdbc.sql("""
                INSERT INTO workload (uid, namespace, name, kind, queue_name, cluster_queue, priority, state, manifest,
                                      pod_sets, admission, queue_timestamp, created_at, admitted_at, cluster,
                                      exclusive_topology)
                SELECT gen_random_uuid(), 'team-a', 'js-' || i, 'JobSet', 'lq', 'cq', i, 'Running',
                       jsonb_build_object('apiVersion', 'jobset.x-k8s.io/v1alpha2', 'kind', 'JobSet',
                                          'metadata', jsonb_build_object('name', 'js-' || i)),
                       '[{"name":"slice","count":4,"minCount":null,"requests":{"google.com/tpu":"4"},"nodeSelector":{},"requiredNodeAffinity":[],"tolerations":[],"replicas":1,"podsPerReplica":4}]'::jsonb,
                       jsonb_build_object('clusterQueue', 'cq', 'podSetAssignments', jsonb_build_array(jsonb_build_object(
                           'name', 'slice', 'count', 4, 'flavors', jsonb_build_object('google.com/tpu', 'default'),
                           'resourceUsage', jsonb_build_object('google.com/tpu', '16'),
                           'nodePools', jsonb_build_array('pool-' || lpad(i::text, 4, '0'))))),
                       now(), now(), now() - (i || ' seconds')::interval, ?,
                       CASE WHEN i < ? THEN 'cloud.google.com/gke-nodepool' END
                FROM generate_series(0, ? - 1) AS i""").params(CLUSTER, POOLS, RUNNING).update();
        jdbc.sql("UPDATE workload SET admission = jsonb_set(admission, '{podSetAssignments,0,nodePools}', '[]'), "
                + "cluster = NULL WHERE exclusive_topology IS NULL").update();
        jdbc.sql("""
                INSERT INTO workload_usage (workload_uid, cluster_queue, flavor, resource, amount)
                SELECT uid, 'cq', 'default', 'google.com/tpu', 16 FROM workload""").update();
        jdbc.sql("VACUUM ANALYZE workload").update();
    }

    private static String poolName(int i) {
        return String.format("pool-%04d", i);
    }

    private static NodePoolReport pool(int i, boolean failed) {
        HealthState state = failed ? HealthState.UNHEALTHY : HealthState.HEALTHY;
        List<NodeHealthReason> reasons = failed ? List.of(NodeHealthReason.NOT_READY) : List.of();
        List<NodeReport> nodes = IntStream.range(0, 4).mapToObj(n -> new NodeReport(poolName(i) + "-node-" + n,
                n == 0 ? state : HealthState.HEALTHY, n == 0 ? reasons : List.of(), 4, 4, null)).toList();
        return new NodePoolReport(poolName(i), "tpu-v6e-slice", "4x4", state, reasons, nodes);
    }

    private static AgentReport report(long sequence, ReportKind kind, List<NodePoolReport> pools) {
        return new AgentReport(CLUSTER, "bench-agent", true, sequence, Instant.now(), kind, pools, List.of(),
                List.of(), List.of());
    }
}
