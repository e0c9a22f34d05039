package dev.platform.scheduler.performance;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TestIdentity;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.platform.scheduler.performance.KueueShapeRun.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Durable admissions per second with a deep backlog: {@code backlog} pending workloads wait in {@code queues}
 * held ClusterQueues with quota for all of them, on a connected cluster (a FULL agent report and heartbeats,
 * no agent executing anything); the queues are released in one configuration change, and the clock runs until
 * every workload is committed Admitted, each with its status, quota rows, START command and timeline entries.
 * The backlog is written straight into the workload table (as the change feed would carry that many
 * submissions), so the figure is the scheduling loop's and its decision writer's alone.
 */
final class AdmissionThroughputRun {

    static final String NAMESPACE = "adm";
    private static final String CLUSTER = "prod-1";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** WorkloadStore's advisory lock: a writer of workload rows draws change sequences in commit order. */
    private static final long WORKLOAD_CHANGES_LOCK = 0x776f726b6c6f6164L;

    private AdmissionThroughputRun() {
    }

    static Map<String, Object> run(SchedulerHost host, int queues, int backlog) {
        PlatformClient api = host.api();
        assertThat(api.postYaml("/api/v1/manifests", configuration(queues, backlog / queues + 1, "Hold")).status())
                .isEqualTo(200);
        AtomicLong sequence = new AtomicLong();
        report(api, sequence, ReportKind.FULL);
        ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor();
        heartbeat.scheduleWithFixedDelay(() -> report(api, sequence, ReportKind.DELTA), 5, 5, TimeUnit.SECONDS);
        try {
            seed(host, api, queues, backlog);
            await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(200)).until(() -> host.jdbc()
                    .sql("SELECT count(*) FROM workload w JOIN workload_pending_reason r ON r.workload_uid = w.uid"
                            + " WHERE namespace = ? AND r.reason = 'QueueStopped'")
                    .param(NAMESPACE).query(Long.class).single() == backlog);

            LoadAverage load = LoadAverage.start();
            StatementStatistics.reset(host.jdbc());
            assertThat(api.postYaml("/api/v1/manifests", configuration(queues, backlog / queues + 1, "None"))
                    .status()).isEqualTo(200);
            long released = System.nanoTime();
            // Whether any is still pending, not a count: counting 50,000 rows every 20 ms kept a core of the
            // database busy while it committed the admissions (a count took 16 ms).
            await().atMost(Duration.ofMinutes(30)).pollInterval(Duration.ofMillis(20)).until(() -> !host.jdbc()
                    .sql("SELECT EXISTS (SELECT 1 FROM workload WHERE namespace = ? AND state = 'Pending')")
                    .param(NAMESPACE).query(Boolean.class).single());
            double seconds = (System.nanoTime() - released) / 1e9;
            StatementStatistics.write(host.jdbc(), Path.of("target", "performance-work", "admission", "statements.txt"));
            assertThat(host.jdbc().sql("SELECT count(*) FROM workload WHERE namespace = ? AND state = 'Admitted'")
                    .param(NAMESPACE).query(Long.class).single()).as("every one admitted").isEqualTo(backlog);
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("backlog", backlog);
            figures.put("clusterQueues", queues);
            figures.put("seconds", round(seconds));
            figures.put("perSecond", round(backlog / seconds));
            figures.putAll(written(host));
            figures.put("loadAverage", load.end());
            return figures;
        } finally {
            heartbeat.shutdownNow();
        }
    }

    /** What the admissions wrote, to show each is complete: commits, the largest, START commands, quota rows. */
    private static Map<String, Object> written(SchedulerHost host) {
        Map<String, Object> written = new LinkedHashMap<>();
        Map<String, Object> commits = host.jdbc().sql("""
                        SELECT count(*) AS commits, max(n) AS largest FROM (
                          SELECT admitted_at, count(*) AS n FROM workload WHERE namespace = ? AND state = 'Admitted'
                          GROUP BY admitted_at) c""")
                .param(NAMESPACE).query().singleRow();
        written.put("commits", commits.get("commits"));
        written.put("largestCommit", commits.get("largest"));
        written.put("startCommands", host.jdbc().sql("""
                        SELECT count(*) FROM agent_command c JOIN workload w ON w.uid = c.workload_uid
                        WHERE w.namespace = ? AND c.type = 'START'""")
                .param(NAMESPACE).query(Long.class).single());
        written.put("quotaRows", host.jdbc().sql("""
                        SELECT count(*) FROM workload_usage u JOIN workload w ON w.uid = u.workload_uid
                        WHERE w.namespace = ?""")
                .param(NAMESPACE).query(Long.class).single());
        return written;
    }

    /**
     * One workload submitted over REST as the template, copied {@code backlog} times over the queues in one
     * statement under the workload writers' lock (so the change feed sees them in order), then cancelled itself.
     */
    private static void seed(SchedulerHost host, PlatformClient api, int queues, int backlog) {
        PlatformClient.Response template = api.postYaml("/api/v1/namespaces/" + NAMESPACE + "/workloads",
                Manifests.onePodJobSet("adm-template", Map.of("kueue.x-k8s.io/queue-name", "adm-0"), Map.of(), "1"));
        assertThat(template.status()).as(template.body()).isEqualTo(201);
        host.jdbc().sql("""
                        WITH changes AS (SELECT pg_advisory_xact_lock(:lock))
                        INSERT INTO workload (uid, namespace, name, kind, queue_name, cluster_queue, priority_class_name,
                                              priority, state, manifest, pod_sets, queue_timestamp, created_at)
                        SELECT gen_random_uuid(), t.namespace, 'adm-w-' || i, t.kind, 'adm-' || (i % :queues),
                               'adm-' || (i % :queues), t.priority_class_name, t.priority, 'Pending',
                               jsonb_set(t.manifest, '{metadata,name}', to_jsonb('adm-w-' || i)), t.pod_sets,
                               now() + i * interval '1 microsecond', now()
                        FROM workload t, generate_series(0, :backlog - 1) AS i, changes
                        WHERE t.namespace = :namespace AND t.name = 'adm-template'""")
                .param("lock", WORKLOAD_CHANGES_LOCK).param("queues", queues).param("backlog", backlog)
                .param("namespace", NAMESPACE).update();
        assertThat(api.delete("/api/v1/namespaces/" + NAMESPACE + "/workloads/adm-template").status()).isEqualTo(200);
    }

    private static String configuration(int queues, int quotaPerQueue, String stopPolicy) {
        String head = """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: adm-rf}
                """;
        return head + IntStream.range(0, queues).mapToObj(i -> """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: adm-%d}
                spec:
                  stopPolicy: %s
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: adm-rf, resources: [{name: cpu, nominalQuota: "%d"}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: adm-%d, namespace: %s}
                spec: {clusterQueue: adm-%d}
                """.formatted(i, stopPolicy, quotaPerQueue, i, NAMESPACE, i)).collect(Collectors.joining());
    }

    /** The cluster as an agent reports it: one healthy CPU pool of two nodes. */
    private static void report(PlatformClient api, AtomicLong sequence, ReportKind kind) {
        List<NodePoolReport> pools = kind == ReportKind.DELTA ? List.of() : List.of(new NodePoolReport("cpu-pool",
                null, null, HealthState.HEALTHY, List.of(), List.of(
                new NodeReport("cpu-node-0", HealthState.HEALTHY, List.of(), 0, 0, null),
                new NodeReport("cpu-node-1", HealthState.HEALTHY, List.of(), 0, 0, null))));
        AgentReport report = new AgentReport(CLUSTER, "benchmark-agent", true, sequence.incrementAndGet(),
                Instant.now(), kind, pools, List.of(), List.of(), List.of());
        PlatformClient.Response answer = api.as(TestIdentity.agentToken(CLUSTER))
                .postJson(AgentProtocol.REPORTS_PATH.replace("{cluster}", CLUSTER), JSON.writeValueAsString(report));
        if (answer.status() != 200) {
            throw new IllegalStateException("report refused: " + answer.status() + " " + answer.body());
        }
    }
}
