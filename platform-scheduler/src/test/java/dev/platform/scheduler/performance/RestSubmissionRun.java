package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static dev.platform.scheduler.performance.KueueShapeRun.round;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Submissions over REST as fast as {@code clients} concurrent callers get answers (each sends its next
 * submission when the previous one is answered), without and with an {@code Idempotency-Key}: throughput and
 * latency percentiles of {@code POST /api/v1/namespaces/{ns}/workloads}, every one a durable commit of the
 * workload row and its first timeline entry. The ClusterQueue holds (stopPolicy Hold), so the loop reads every
 * submission from the change feed and records why it waits, but admits nothing: the figure is the API's. The
 * measured submissions follow {@code warmUp} others, whose figures are reported too: a process just started spends
 * much of its first minute under load compiling (in a lab run the JIT's threads took 42% of the scheduler's CPU in
 * the 30 s after a 5 s warm-up, and 5% after a minute), and the figure is the API's, not the compiler's.
 */
final class RestSubmissionRun {

    static final String NAMESPACE = "rest-bench";
    private static final String WARM_UP = "warm-up";

    private RestSubmissionRun() {
    }

    static Map<String, Object> run(SchedulerHost host, int clients, int perClient, int warmUp) {
        PlatformClient api = host.api();
        return run(api, "java.net.http.HttpClient, one thread per client, in the benchmark's JVM",
                (variant, keyed) -> variant.equals(WARM_UP)
                        ? measure(api, variant, Math.min(clients, warmUp), Math.max(1, warmUp / clients), keyed)
                        : measure(api, variant, clients, perClient, keyed));
    }

    /**
     * The same with {@link Wrk} as the clients, for {@code duration} per variant after {@code warmUp}; every
     * acknowledged submission is then counted in the database.
     */
    static Map<String, Object> runWithWrk(SchedulerHost host, int clients, Duration warmUp, Duration duration,
                                          Path workDir) {
        return run(host.api(), "wrk, 2 threads", (variant, keyed) -> measureWithWrk(host, variant, clients,
                variant.equals(WARM_UP) ? warmUp : duration, keyed, workDir));
    }

    /** One variant's figures: {@code variant} names its submissions, {@code keyed} sends Idempotency-Keys. */
    private interface Variant {
        Map<String, Object> measure(String variant, boolean keyed);
    }

    /** The queue, the warm-up, then the two variants measured, each by {@code variants}. */
    private static Map<String, Object> run(PlatformClient api, String loadGenerator, Variant variants) {
        configure(api);
        Map<String, Object> warm = variants.measure(WARM_UP, false);
        LoadAverage load = LoadAverage.start();
        Map<String, Object> figures = variants.measure("plain", false);
        figures.put("withIdempotencyKey", variants.measure("keyed", true));
        figures.put("warmUp", warm);
        figures.put("loadGenerator", loadGenerator);
        figures.put("loadAverage", load.end());
        return figures;
    }

    private static Map<String, Object> measureWithWrk(SchedulerHost host, String variant, int clients,
                                                      Duration duration, boolean idempotencyKeys, Path workDir) {
        String marker = "NAME-OF-THE-SUBMISSION";
        String body = jobSet(marker);
        int at = body.indexOf(marker);
        PlatformClient api = host.api();
        Wrk.Result result = Wrk.post(api.baseUrl(), api.token(), "/api/v1/namespaces/" + NAMESPACE + "/workloads",
                body.substring(0, at), body.substring(at + marker.length()), variant, idempotencyKeys, clients,
                duration, workDir);
        assertThat(result.failures()).as("refused submissions: " + result.failureSample()).isZero();
        long stored = host.jdbc().sql("SELECT count(*) FROM workload WHERE namespace = ? AND name LIKE ?")
                .params(NAMESPACE, variant + "-%").query(Long.class).single();
        // wrk stops at its duration with a request on each connection whose answer it does not wait for.
        assertThat(stored).as("every acknowledged submission stored, and at most one more per client")
                .isBetween(result.created(), result.created() + clients);
        return figures(clients, result.created(), result.seconds(), result.p50Millis(), result.p99Millis(),
                result.maxMillis());
    }

    private static void configure(PlatformClient api) {
        PlatformClient.Response applied = api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: rest-rf}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: rest-bench}
                spec:
                  stopPolicy: Hold
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: rest-rf, resources: [{name: cpu, nominalQuota: "1000"}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: rest-bench, namespace: rest-bench}
                spec: {clusterQueue: rest-bench}
                """);
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    }

    private static Map<String, Object> measure(PlatformClient api, String variant, int clients, int perClient,
                                               boolean idempotencyKeys) {
        Latencies latencies = new Latencies();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> callers = new ArrayList<>();
        for (int client = 0; client < clients; client++) {
            int c = client;
            callers.add(pool.submit(() -> {
                go.await();
                for (int n = 0; n < perClient; n++) {
                    String name = variant + "-" + c + "-" + n;
                    HttpRequest.Builder request = api.request("/api/v1/namespaces/" + NAMESPACE + "/workloads")
                            .header("Content-Type", "application/yaml")
                            .POST(HttpRequest.BodyPublishers.ofString(jobSet(name)));
                    if (idempotencyKeys) {
                        request.header("Idempotency-Key", UUID.randomUUID().toString());
                    }
                    long sent = System.nanoTime();
                    PlatformClient.Response response = api.send(request);
                    latencies.add(System.nanoTime() - sent);
                    if (response.status() != 201) {
                        failures.add(name + ": " + response.status() + " " + response.body());
                    }
                }
                return null;
            }));
        }
        long start = System.nanoTime();
        go.countDown();
        try {
            for (Future<?> caller : callers) {
                caller.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(failures).as("refused submissions").isEmpty();
        return figures(clients, latencies.count(), seconds, latencies.percentile(50), latencies.percentile(99),
                latencies.percentile(100));
    }

    private static Map<String, Object> figures(int clients, long submissions, double seconds, double p50Millis,
                                               double p99Millis, double maxMillis) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("clients", clients);
        figures.put("submissions", submissions);
        figures.put("submissionsPerSecond", round(submissions / seconds));
        figures.put("p50Millis", round(p50Millis));
        figures.put("p99Millis", round(p99Millis));
        figures.put("maxMillis", round(maxMillis));
        return figures;
    }

    private static String jobSet(String name) {
        return Manifests.onePodJobSet(name, Map.of("kueue.x-k8s.io/queue-name", NAMESPACE), Map.of(), "1");
    }
}
