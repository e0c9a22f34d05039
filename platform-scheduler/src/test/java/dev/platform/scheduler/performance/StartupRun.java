package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.platform.scheduler.performance.KueueShapeRun.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduler's start-up and heap at scale: {@code cohorts} x {@code queuesPerCohort} ClusterQueues, each
 * full with {@code admittedPerQueue} admitted 1-cpu workloads and {@code pendingPerQueue} more waiting (nothing can
 * be admitted or preempted: the waiting are of equal or lower priority). Written while the scheduler is stopped;
 * then measured: launch to state rebuilt, the rebuild alone, until the first cycle has recorded why each waits,
 * and the live heap after a full collection.
 */
final class StartupRun {

    static final String NAMESPACE = "startup";
    /** WorkloadStore's advisory lock, as in {@link AdmissionThroughputRun}. */
    private static final long WORKLOAD_CHANGES_LOCK = 0x776f726b6c6f6164L;

    private StartupRun() {
    }

    static Map<String, Object> run(SchedulerHost host, int cohorts, int queuesPerCohort, int admittedPerQueue,
                                   int pendingPerQueue) {
        Backlog backlog = new Backlog(NAMESPACE, "st", cohorts, queuesPerCohort, admittedPerQueue, pendingPerQueue);
        backlog.configure(host);
        int queues = backlog.queues();
        int admitted = backlog.admitted();
        int pending = backlog.pending();
        LoadAverage load = LoadAverage.start();
        SchedulerHost.Startup startup = host.restart(() -> {
            backlog.seed(host);
            StatementStatistics.reset(host.jdbc());
        });
        long ready = System.nanoTime();
        // Whether any is still without a reason, not a count: counting 100,000 rows every 100 ms took a good part of
        // a core of the database while it wrote the reasons this times.
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(100)).until(() -> !host.jdbc()
                .sql("SELECT EXISTS (SELECT 1 FROM workload w WHERE namespace = ? AND state = 'Pending'"
                        + " AND NOT EXISTS (SELECT 1 FROM workload_pending_reason r WHERE r.workload_uid = w.uid))")
                .param(NAMESPACE).query(Boolean.class).single());
        double caughtUp = (System.nanoTime() - ready) / 1e9;
        StatementStatistics.write(host.jdbc(), Path.of("target", "performance-work", "startup", "statements.txt"));
        assertThat(host.jdbc().sql("SELECT count(*) FROM workload w JOIN workload_pending_reason r"
                        + " ON r.workload_uid = w.uid WHERE namespace = ? AND state = 'Pending'")
                .param(NAMESPACE).query(Long.class).single())
                .as("every pending workload's reason recorded").isEqualTo(pending);
        OptionalLong heap = host.liveHeapBytes();

        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("clusterQueues", queues);
        figures.put("pending", pending);
        figures.put("admitted", admitted);
        figures.put("pending100kMiB", heap.isPresent() ? round(heap.getAsLong() / (1024.0 * 1024)) : null);
        figures.put("maxHeap", heap.isPresent() ? SchedulerProcessHost.HEAP : null);
        figures.put("readySeconds", round(startup.ready().toMillis() / 1000.0));
        figures.put("rebuildSeconds", round(startup.rebuild().toMillis() / 1000.0));
        figures.put("firstDecisionsAfterReadySeconds", round(caughtUp));
        figures.put("launchToDecisionsSeconds", round(startup.ready().toMillis() / 1000.0 + caughtUp));
        figures.put("loadAverage", load.end());
        return figures;
    }

    /**
     * A backlog that cannot move: {@code cohorts} x {@code queuesPerCohort} ClusterQueues named {@code prefix-<i>}
     * (LocalQueues of the same names in {@code namespace}), each full with {@code admittedPerQueue} admitted 1-cpu
     * workloads ({@code admitted-<i>}) and {@code pendingPerQueue} more waiting ({@code pending-<i>}) of equal or
     * lower priority, so nothing can be admitted or preempted.
     */
    record Backlog(String namespace, String prefix, int cohorts, int queuesPerCohort, int admittedPerQueue,
                   int pendingPerQueue) {

        int queues() {
            return cohorts * queuesPerCohort;
        }

        int admitted() {
            return queues() * admittedPerQueue;
        }

        int pending() {
            return queues() * pendingPerQueue;
        }

        private String template() {
            return prefix + "-template";
        }

        /**
         * The ClusterQueues and LocalQueues, a hundred of each to a request, and the template's row: one workload
         * submitted over REST and deleted, whose row the seed copies.
         */
        void configure(SchedulerHost host) {
            PlatformClient api = host.api();
            for (int from = 0; from < queues(); from += 100) {
                PlatformClient.Response applied = api.postYaml("/api/v1/manifests",
                        configuration(from, Math.min(queues(), from + 100)));
                assertThat(applied.status()).as(applied.body()).isEqualTo(200);
            }
            PlatformClient.Response template = api.postYaml("/api/v1/namespaces/" + namespace + "/workloads",
                    Manifests.onePodJobSet(template(), Map.of("kueue.x-k8s.io/queue-name", prefix + "-0"), Map.of(),
                            "1"));
            assertThat(template.status()).as(template.body()).isEqualTo(201);
            assertThat(api.delete("/api/v1/namespaces/" + namespace + "/workloads/" + template()).status())
                    .isEqualTo(200);
        }

        /**
         * The admitted workloads with their admission and quota rows, then the pending ones (priority 0 and 1, their
         * queue timestamps in order), all copies of the template, each in one transaction under the writers' lock.
         */
        void seed(SchedulerHost host) {
            host.jdbc().sql("""
                            WITH changes AS (SELECT pg_advisory_xact_lock(:lock)),
                            template AS (SELECT t.* FROM workload t, changes WHERE t.namespace = :namespace
                                         AND t.name = :template),
                            admitted AS (
                              INSERT INTO workload (uid, namespace, name, kind, queue_name, cluster_queue, priority_class_name,
                                                    priority, state, manifest, pod_sets, admission, queue_timestamp,
                                                    created_at, admitted_at)
                              SELECT gen_random_uuid(), t.namespace, 'admitted-' || i, t.kind, :prefix || '-' || (i % :queues),
                                     :prefix || '-' || (i % :queues), t.priority_class_name, 1, 'Admitted', t.manifest, t.pod_sets,
                                     jsonb_build_object('clusterQueue', :prefix || '-' || (i % :queues), 'podSetAssignments',
                                         jsonb_build_array(jsonb_build_object('name', t.pod_sets -> 0 ->> 'name', 'count', 1,
                                             'flavors', jsonb_build_object('cpu', (:prefix || '-rf')),
                                             'resourceUsage', jsonb_build_object('cpu', '1'), 'nodePools', '[]'::jsonb))),
                                     now() - interval '1 hour' + i * interval '1 microsecond', now() - interval '1 hour',
                                     now() - interval '30 minutes'
                              FROM template t, generate_series(0, :admitted - 1) AS i
                              RETURNING uid, cluster_queue)
                            INSERT INTO workload_usage (workload_uid, cluster_queue, flavor, resource, amount)
                            SELECT uid, cluster_queue, (:prefix || '-rf'), 'cpu', 1 FROM admitted""")
                    .param("lock", WORKLOAD_CHANGES_LOCK).param("namespace", namespace).param("queues", queues())
                    .param("admitted", admitted()).param("template", template()).param("prefix", prefix).update();
            host.jdbc().sql("""
                            WITH changes AS (SELECT pg_advisory_xact_lock(:lock))
                            INSERT INTO workload (uid, namespace, name, kind, queue_name, cluster_queue, priority_class_name,
                                                  priority, state, manifest, pod_sets, queue_timestamp, created_at)
                            SELECT gen_random_uuid(), t.namespace, 'pending-' || i, t.kind, :prefix || '-' || (i % :queues),
                                   :prefix || '-' || (i % :queues), t.priority_class_name, i % 2, 'Pending', t.manifest, t.pod_sets,
                                   now() + i * interval '1 microsecond', now()
                            FROM workload t, generate_series(0, :pending - 1) AS i, changes
                            WHERE t.namespace = :namespace AND t.name = :template""")
                    .param("lock", WORKLOAD_CHANGES_LOCK).param("namespace", namespace).param("queues", queues())
                    .param("pending", pending()).param("template", template()).param("prefix", prefix).update();
            host.jdbc().sql("VACUUM ANALYZE workload").update();
        }

        private String configuration(int from, int to) {
            StringBuilder yaml = new StringBuilder("""
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: ResourceFlavor
                    metadata: {name: %s-rf}
                    """.formatted(prefix));
            yaml.append(IntStream.range(from, to).mapToObj(i -> """
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: ClusterQueue
                    metadata: {name: %2$s-%1$d}
                    spec:
                      cohort: %2$s-cohort-%3$d
                      preemption: {reclaimWithinCohort: LowerPriority, withinClusterQueue: LowerPriority}
                      resourceGroups:
                      - coveredResources: [cpu]
                        flavors: [{name: %2$s-rf, resources: [{name: cpu, nominalQuota: "%4$d"}]}]
                    ---
                    apiVersion: kueue.x-k8s.io/v1beta1
                    kind: LocalQueue
                    metadata: {name: %2$s-%1$d, namespace: %5$s}
                    spec: {clusterQueue: %2$s-%1$d}
                    """.formatted(i, prefix, i / queuesPerCohort, admittedPerQueue, namespace))
                        .collect(Collectors.joining()));
            return yaml.toString();
        }
    }
}
