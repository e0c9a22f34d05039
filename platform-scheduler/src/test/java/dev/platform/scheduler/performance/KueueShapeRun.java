package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import dev.platform.scheduler.testsupport.TestIdentity;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * One of Kueue's scheduler-performance shapes end to end: the configuration applied over REST, the real agent
 * in-process on a simulated cluster (each JobSet runs its class's runtime, then succeeds), the workloads submitted
 * over REST on the generator's schedule, and the figures Kueue's runner reports, computed from what the platform
 * stored: wall time, mean time to admission per class (creation to the last admission, as Kueue's recorder counts
 * it), the ClusterQueues' usage, evictions; and the capacity lower bound of the makespan beside them.
 */
final class KueueShapeRun {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);

    private KueueShapeRun() {
    }

    static Map<String, Object> run(SchedulerHost host, KueueShape shape, int clients, Duration patience) {
        PlatformClient api = host.api();
        for (String document : shape.manifests(100)) {
            PlatformClient.Response applied = api.postYaml("/api/v1/manifests", document);
            assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        }
        String[] namespaces = shape.clusterQueues().toArray(String[]::new);
        LoadAverage load = LoadAverage.start();
        Instant start;
        ArrivalSubmitter.Outcome submitted;
        try (SimulatedAgent agent = SimulatedAgent.startUnchecked(host.port(), "sim", TestIdentity.agentToken("sim"))) {
            await().atMost(Duration.ofMinutes(1)).until(() -> api.get("/api/v1/clusters/sim/nodepools"),
                    r -> r.status() == 200 && r.json().get("items").size() == 5);
            start = Instant.now();
            submitted = ArrivalSubmitter.submit(api, shape.arrivals(), clients);
            assertThat(submitted.failures()).as("refused submissions").isEmpty();
            awaitAllFinished(host, namespaces, shape.workloadCount(), start, patience);
        }
        Map<String, Object> figures = figures(host, shape, namespaces, start);
        figures.put("submissionP50Millis", round(submitted.latencies().percentile(50)));
        figures.put("submissionP99Millis", round(submitted.latencies().percentile(99)));
        figures.put("maxArrivalLagSeconds", round(submitted.maxLag().toMillis() / 1000.0));
        figures.put("clients", clients);
        figures.put("loadAverage", load.end());
        return figures;
    }

    private static void awaitAllFinished(SchedulerHost host, String[] namespaces, int total, Instant start,
                                         Duration patience) {
        Instant[] nextProgress = {Instant.now().plus(PROGRESS_EVERY)};
        // The wall time is read from the stored finishes, not from this poll, which counts every workload of the
        // shape: at 50,000 a count is tens of milliseconds of the database's CPU, so it looks once a second.
        await().atMost(patience).pollInterval(Duration.ofSeconds(1)).until(() -> {
            Map<String, Long> byState = new TreeMap<>();
            host.jdbc().sql("SELECT state, count(*) FROM workload WHERE namespace = ANY(?) GROUP BY state")
                    .param(namespaces).query((rs, i) -> byState.put(rs.getString(1), rs.getLong(2))).list();
            long ended = byState.getOrDefault("Finished", 0L) + byState.getOrDefault("Failed", 0L);
            if (Instant.now().isAfter(nextProgress[0])) {
                nextProgress[0] = Instant.now().plus(PROGRESS_EVERY);
                System.out.printf("  %5.0f s: %s%n", Duration.between(start, Instant.now()).toMillis() / 1000.0, byState);
            }
            return ended == total;
        });
    }

    /** Per workload: its ClusterQueue, class, request and runtime; the timestamps the platform stored. */
    private record Stored(String clusterQueue, KueueShape.WorkloadClass workloadClass, String state,
                          Instant createdAt, Instant admittedAt, Instant finishedAt) {
    }

    private static Map<String, Object> figures(SchedulerHost host, KueueShape shape, String[] namespaces,
                                               Instant start) {
        Map<String, KueueShape.WorkloadClass> classes = new HashMap<>();
        shape.classes().forEach(c -> classes.put(c.name(), c));
        Map<String, Stored> workloads = new HashMap<>();
        host.jdbc().sql("""
                        SELECT uid, namespace, name, state, created_at, admitted_at, finished_at FROM workload
                        WHERE namespace = ANY(?)""")
                .param(namespaces)
                .query((rs, i) -> workloads.put(rs.getString("uid"), new Stored(rs.getString("namespace"),
                        classes.get(rs.getString("name").substring(0, rs.getString("name").indexOf('-'))),
                        rs.getString("state"), instant(rs.getTimestamp("created_at")),
                        instant(rs.getTimestamp("admitted_at")), instant(rs.getTimestamp("finished_at")))))
                .list();
        Instant end = workloads.values().stream().map(Stored::finishedAt).max(Instant::compareTo).orElseThrow();
        double wall = Duration.between(start, end).toMillis() / 1000.0;

        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("shape", shape.cohorts() + " cohorts x " + shape.queuesPerCohort() + " ClusterQueues, "
                + shape.workloadCount() + " workloads");
        figures.put("workloads", workloads.size());
        figures.put("failed", workloads.values().stream().filter(w -> !"Finished".equals(w.state())).count());
        figures.put("wallSeconds", round(wall));
        figures.put("lowerBoundSeconds", round(shape.lowerBoundSeconds()));
        figures.put("ratioToLowerBound", round(wall / shape.lowerBoundSeconds()));
        figures.put("generationSeconds", round(shape.generationTime().toMillis() / 1000.0));
        // A workload preempted in the instant its JobSet completed finishes Pending, its admission time cleared by
        // the eviction: it is left out of the mean time to admission and counted here.
        figures.put("finishedWhileEvicted", workloads.values().stream().filter(w -> w.admittedAt() == null).count());
        Map<String, Object> meanToAdmission = new LinkedHashMap<>();
        for (KueueShape.WorkloadClass c : shape.classes()) {
            meanToAdmission.put(c.name(), round(workloads.values().stream()
                    .filter(w -> w.workloadClass() == c && w.admittedAt() != null)
                    .mapToLong(w -> Duration.between(w.createdAt(), w.admittedAt()).toMillis()).average()
                    .orElse(Double.NaN) / 1000.0));
        }
        figures.put("meanTimeToAdmissionSeconds", meanToAdmission);
        usage(host, shape, namespaces, workloads, start, end, figures);
        return figures;
    }

    /**
     * Quota held over time, from the timeline: each admission holds its request from its Admitted condition to
     * the Evicted or Finished condition that ends it. Usage is what was held over (nominal quota x window), per
     * ClusterQueue and for all of them (Kueue's per-class figure); overhead is what was held beyond the runtime,
     * per completed admission (start, report, finish through the agent): its mean per class, and its p99 over all.
     */
    private static void usage(SchedulerHost host, KueueShape shape, String[] namespaces, Map<String, Stored> workloads,
                              Instant start, Instant end, Map<String, Object> figures) {
        Map<String, Double> heldUnitSeconds = new HashMap<>();
        Map<String, Long> evictions = new TreeMap<>();
        Map<String, double[]> overhead = new LinkedHashMap<>();
        shape.classes().forEach(c -> overhead.put(c.name(), new double[2]));
        Map<String, Instant> admittedSince = new HashMap<>();
        Latencies heldBeyondRuntime = new Latencies();
        host.jdbc().sql("""
                        SELECT e.workload_uid, e.type, e.at FROM workload_event e JOIN workload w ON w.uid = e.workload_uid
                        WHERE w.namespace = ANY(?) AND e.status = 'True' AND e.type IN ('Admitted', 'Evicted', 'Finished')
                        ORDER BY e.workload_uid, e.at, e.id""")
                .param(namespaces)
                .query((rs, i) -> {
                    String uid = rs.getString(1);
                    Stored w = workloads.get(uid);
                    Instant at = instant(rs.getTimestamp(3));
                    switch (rs.getString(2)) {
                        case "Admitted" -> admittedSince.put(uid, at);
                        case "Evicted", "Finished" -> {
                            Instant since = admittedSince.remove(uid);
                            if (since != null) {
                                double held = Duration.between(since, at).toMillis() / 1000.0;
                                heldUnitSeconds.merge(w.clusterQueue(), held * w.workloadClass().request(), Double::sum);
                                if (rs.getString(2).equals("Finished")) {
                                    double[] o = overhead.get(w.workloadClass().name());
                                    double beyond = held - w.workloadClass().runtime().toMillis() / 1000.0;
                                    o[0] += beyond;
                                    o[1]++;
                                    heldBeyondRuntime.add(Math.round(beyond * 1e9));
                                } else {
                                    evictions.merge(w.workloadClass().name(), 1L, Long::sum);
                                }
                            }
                        }
                        default -> throw new IllegalStateException(rs.getString(2));
                    }
                    return uid;
                }).list();
        double window = Duration.between(start, end).toMillis() / 1000.0;
        double perQueueCapacity = shape.nominalQuota() * window;
        double minimum = shape.clusterQueues().stream()
                .mapToDouble(q -> heldUnitSeconds.getOrDefault(q, 0.0) / perQueueCapacity).min().orElse(0);
        double total = heldUnitSeconds.values().stream().mapToDouble(Double::doubleValue).sum();
        figures.put("clusterQueueUsagePercent", round(100 * total / (perQueueCapacity * shape.clusterQueues().size())));
        figures.put("minClusterQueueUsagePercent", round(100 * minimum));
        figures.put("evictions", evictions);
        Map<String, Object> meanOverhead = new LinkedHashMap<>();
        overhead.forEach((c, o) -> meanOverhead.put(c, round(o[1] == 0 ? Double.NaN : o[0] / o[1])));
        figures.put("meanQuotaHeldBeyondRuntimeSeconds", meanOverhead);
        figures.put("quotaHeldBeyondRuntimeP99Seconds", round(heldBeyondRuntime.percentile(99) / 1000));
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }

    /** Three decimals; null for a figure that could not be measured (JSON has no NaN). */
    static Double round(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? null : Math.round(value * 1000) / 1000.0;
    }
}
