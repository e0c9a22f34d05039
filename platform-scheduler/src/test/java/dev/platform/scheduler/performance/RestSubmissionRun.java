package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;

import java.net.http.HttpRequest;
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
 * submission from the change feed and records why it waits, but admits nothing: the figure is the API's.
 */
final class RestSubmissionRun {

    static final String NAMESPACE = "rest-bench";

    private RestSubmissionRun() {
    }

    static Map<String, Object> run(SchedulerHost host, int clients, int perClient, int warmUp) {
        PlatformClient api = host.api();
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
        measure(api, "warm-up", Math.min(clients, warmUp), Math.max(1, warmUp / clients), false);
        LoadAverage load = LoadAverage.start();
        Map<String, Object> figures = measure(api, "plain", clients, perClient, false);
        figures.put("withIdempotencyKey", measure(api, "keyed", clients, perClient, true));
        figures.put("loadAverage", load.end());
        return figures;
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
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("clients", clients);
        figures.put("submissions", latencies.count());
        figures.put("submissionsPerSecond", round(latencies.count() / seconds));
        figures.put("p50Millis", round(latencies.percentile(50)));
        figures.put("p99Millis", round(latencies.percentile(99)));
        figures.put("maxMillis", round(latencies.percentile(100)));
        return figures;
    }

    private static String jobSet(String name) {
        return Manifests.onePodJobSet(name, Map.of("kueue.x-k8s.io/queue-name", NAMESPACE), Map.of(), "1");
    }
}
