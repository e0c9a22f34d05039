package dev.platform.scheduler.performance;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.TlsClients;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static dev.platform.scheduler.performance.KueueShapeRun.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kubernetes API under {@code /k8s} as its clients load it, over HTTPS with a kubeconfig minted by
 * {@code POST /api/v1/kubeconfig} (its server, certificate authority and token):
 * <ul>
 * <li>{@link #list}: {@code kubectl get workloads -A}'s request, a Table ({@value #TABLE}) of 500 a page, paged with
 * {@code continue} through every workload of a backlog that cannot move; latency per page.</li>
 * <li>{@link #watch}: concurrent watchers of every namespace's Workloads from one resourceVersion while a load
 * generator commits changes at a fixed rate; every change counted at every watcher, and its delivery lag.</li>
 * <li>{@link #apply}: a file of JobSets through {@code kubectl apply -f} (the machine image's newest kubectl, skipped
 * and said so where it is absent), beside the same objects through {@code POST /api/v1/manifests}.</li>
 * </ul>
 */
final class KubernetesApiRun {

    static final String NAMESPACE = "k8s-bench";
    /** What kubectl get sends: a Table, else a plain list. */
    static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;"
            + "g=meta.k8s.io,application/json";
    static final String WORKLOADS = "/apis/kueue.x-k8s.io/v1beta2/workloads";
    static final Path KUBECTL = TlsClients.kubectl("1.33");
    /** WorkloadStore's advisory lock, as in {@link AdmissionThroughputRun}. */
    private static final long WORKLOAD_CHANGES_LOCK = 0x776f726b6c6f6164L;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The pages read before measuring, for the JIT: a pass of 100,000 workloads is 200 pages. */
    private static final int WARM_UP_PAGES = 50;
    /** How long after the load the watchers may take to catch up before what they lack is counted missing. */
    private static final Duration DELIVERY_PATIENCE = Duration.ofMinutes(2);
    /**
     * Which workload an event is of: the label with its JobSet's uid (the Workload's own uid is derived from it), and
     * its resourceVersion (the first in an event is metadata's).
     */
    private static final Pattern JOB_UID = Pattern.compile("\"kueue.x-k8s.io/job-uid\":\"([0-9a-f-]{36})\"");
    private static final Pattern RESOURCE_VERSION = Pattern.compile("\"resourceVersion\":\"(\\d+)\"");

    private KubernetesApiRun() {
    }

    /** The HTTPS address, authority and token of a kubeconfig minted for the benchmark's Admin. */
    record Kubeconfig(String yaml, String server, String authorityPem, String token) {

        static Kubeconfig mint(SchedulerHost host) {
            PlatformClient.Response minted = host.api().postJson("/api/v1/kubeconfig",
                    "{\"description\": \"kubernetes benchmark\"}");
            assertThat(minted.status()).as(minted.body()).isEqualTo(200);
            String yaml = minted.body();
            return new Kubeconfig(yaml, field(yaml, "server"),
                    new String(Base64.getDecoder().decode(field(yaml, "certificate-authority-data")),
                            StandardCharsets.US_ASCII), field(yaml, "token"));
        }

        private static String field(String yaml, String name) {
            Matcher m = Pattern.compile("(?m)^\\s*" + name + ": ?\"?([^\"\\s]+)\"?\\s*$").matcher(yaml);
            assertThat(m.find()).as("%s in the kubeconfig:%n%s", name, yaml).isTrue();
            return m.group(1);
        }

        HttpClient client() {
            try {
                return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .sslContext(TlsClients.trusting(authorityPem)).connectTimeout(Duration.ofSeconds(10)).build();
            } catch (GeneralSecurityException | IOException e) {
                throw new IllegalStateException("the kubeconfig's certificate authority: " + e.getMessage(), e);
            }
        }

        HttpRequest.Builder request(String path, String accept) {
            return HttpRequest.newBuilder(URI.create(server + path)).header("Authorization", "Bearer " + token)
                    .header("Accept", accept).timeout(Duration.ofMinutes(2));
        }
    }

    /**
     * A backlog that cannot move ({@link StartupRun.Backlog}) of {@code queues} ClusterQueues, each with
     * {@code admittedPerQueue} admitted and {@code pendingPerQueue} waiting workloads, written while the scheduler
     * is stopped; waits until each pending one has been told why it waits (as a first cycle after a start does).
     */
    static StartupRun.Backlog seed(SchedulerHost host, int queues, int admittedPerQueue, int pendingPerQueue) {
        StartupRun.Backlog backlog = new StartupRun.Backlog(NAMESPACE, "k8s", Math.max(1, queues / 10),
                Math.min(10, queues), admittedPerQueue, pendingPerQueue);
        backlog.configure(host);
        host.restart(() -> backlog.seed(host));
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(200)).until(() -> !host.jdbc()
                .sql("SELECT EXISTS (SELECT 1 FROM workload w WHERE namespace = ? AND state = 'Pending'"
                        + " AND NOT EXISTS (SELECT 1 FROM workload_pending_reason r WHERE r.workload_uid = w.uid))")
                .param(NAMESPACE).query(Boolean.class).single());
        return backlog;
    }

    /**
     * Every workload as Tables of {@code pageSize}, paged with {@code continue}: {@code passes} times through all of
     * them after {@value #WARM_UP_PAGES} unmeasured pages (the JIT's). Per page: the time from sending the request to the whole body read.
     */
    static Map<String, Object> list(SchedulerHost host, int pageSize, int passes) {
        Kubeconfig kubeconfig = Kubeconfig.mint(host);
        HttpClient http = kubeconfig.client();
        long workloads = host.jdbc().sql("SELECT count(*) FROM workload WHERE deleted_at IS NULL").query(Long.class)
                .single();
        pass(http, kubeconfig, pageSize, WARM_UP_PAGES, new Latencies(), new long[1], workloads);
        LoadAverage load = LoadAverage.start();
        Latencies pages = new Latencies();
        long[] bytes = new long[1];
        long started = System.nanoTime();
        for (int i = 0; i < passes; i++) {
            pass(http, kubeconfig, pageSize, Integer.MAX_VALUE, pages, bytes, workloads);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("workloads", workloads);
        figures.put("pageSize", pageSize);
        figures.put("pages", pages.count());
        figures.put("passes", passes);
        figures.put("p50Millis", round(pages.percentile(50)));
        figures.put("p90Millis", round(pages.percentile(90)));
        figures.put("p99Millis", round(pages.percentile(99)));
        figures.put("maxMillis", round(pages.percentile(100)));
        figures.put("secondsPerPass", round(seconds / passes));
        figures.put("bytesPerPage", bytes[0] / pages.count());
        figures.put("request", "GET /k8s" + WORKLOADS + "?limit=" + pageSize + "&continue=..., Accept: " + TABLE
                + ", over HTTPS, one connection");
        figures.put("loadAverage", load.end());
        return figures;
    }

    /** Pages through the list from its start, at most {@code maxPages}; every workload once when not cut short. */
    private static void pass(HttpClient http, Kubeconfig kubeconfig, int pageSize, int maxPages, Latencies pages,
                             long[] bytes, long workloads) {
        String next = null;
        long rows = 0;
        int read = 0;
        do {
            String path = "/apis/kueue.x-k8s.io/v1beta2/workloads?limit=" + pageSize
                    + (next == null ? "" : "&continue=" + next);
            long sent = System.nanoTime();
            HttpResponse<byte[]> page = send(http, kubeconfig.request(path, TABLE).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            pages.add(System.nanoTime() - sent);
            assertThat(page.statusCode()).as(new String(page.body(), StandardCharsets.UTF_8)).isEqualTo(200);
            bytes[0] += page.body().length;
            JsonNode table = JSON.readTree(page.body());
            assertThat(table.path("kind").asString()).isEqualTo("Table");
            rows += table.path("rows").size();
            next = table.path("metadata").path("continue").asString(null);
            assertThat(rows).as("rows listed, of %d workloads", workloads).isLessThanOrEqualTo(workloads);
        } while (next != null && !next.isEmpty() && ++read < maxPages);
        if (read < maxPages) {
            assertThat(rows).as("every workload listed once").isEqualTo(workloads);
        }
    }

    /**
     * {@code watchers} watches of every namespace's Workloads from the revision committed before the load starts,
     * while a load generator commits {@code perSecond} changes a second for {@code duration}: each transaction, every
     * {@code 1000 / commitsPerSecond} ms, bumps the next workloads of {@code population} pending ones in turn (a new
     * change sequence, so a new resourceVersion; the change a checkpoint report makes), under the workload writers'
     * lock as every writer does, and records the instant its commit returned. A watcher counts a change as delivered
     * when it receives that workload at that resourceVersion or a later one (a watch folds the states of an object
     * changed twice between two reads of the log into its latest); the lag of a change is the first such receipt
     * minus its commit.
     */
    static Map<String, Object> watch(SchedulerHost host, int watchers, int perSecond, int commitsPerSecond,
                                     Duration duration, int population) {
        Kubeconfig kubeconfig = Kubeconfig.mint(host);
        List<UUID> uids = host.jdbc().sql("SELECT uid FROM workload WHERE namespace = ? AND state = 'Pending'"
                        + " ORDER BY name LIMIT ?").param(NAMESPACE).param(population).query(UUID.class).list();
        assertThat(uids).as("the population of changed workloads").hasSize(population);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < uids.size(); i++) {
            index.put(uids.get(i).toString(), i);
        }
        String revision = String.valueOf(host.jdbc().sql("SELECT last_value FROM workload_change_seq")
                .query(Long.class).single());
        HttpClient http = kubeconfig.client();
        List<Watcher> running = new ArrayList<>();
        CountDownLatch open = new CountDownLatch(watchers);
        for (int w = 0; w < watchers; w++) {
            Watcher watcher = new Watcher(http, kubeconfig, revision, index, open);
            running.add(watcher);
            watcher.thread.start();
        }
        try {
            assertThat(open.await(2, TimeUnit.MINUTES)).as("every watch answered").isTrue();
            LoadAverage load = LoadAverage.start();
            Commits commits = generate(host, uids, perSecond, commitsPerSecond, duration);
            // until every watcher has every object at its last committed version, or its watch has ended, or
            // DELIVERY_PATIENCE: what was not delivered by then is counted missing
            int[] lastChange = commits.lastChangeOf(population);
            long loadEnded = System.nanoTime();
            try {
                await().atMost(DELIVERY_PATIENCE).pollInterval(Duration.ofMillis(200))
                        .until(() -> running.stream().allMatch(w -> w.ended || w.hasEvery(lastChange, commits)));
            } catch (ConditionTimeoutException e) {
                // what has not arrived by now is counted missing below
            }
            double waitedAfterLoad = (System.nanoTime() - loadEnded) / 1e9;
            long ended = running.stream().filter(w -> w.ended).count();
            running.forEach(Watcher::close);
            List<String> failures = running.stream().filter(w -> w.failure != null)
                    .map(w -> String.valueOf(w.failure)).distinct().toList();
            Latencies lags = new Latencies();
            long exact = 0;
            long folded = 0;
            for (Watcher watcher : running) {
                long[] counted = watcher.deliveries(commits, lags);
                exact += counted[0];
                folded += counted[1];
            }
            long expected = (long) commits.count * watchers;
            Map<String, Object> figures = new LinkedHashMap<>();
            figures.put("watchers", watchers);
            figures.put("changes", commits.count);
            figures.put("commits", commits.transactions);
            figures.put("changesPerSecond", round(commits.count / commits.seconds));
            figures.put("targetChangesPerSecond", perSecond);
            figures.put("seconds", round(commits.seconds));
            figures.put("changedWorkloads", population);
            figures.put("commitP99Millis", round(commits.commitLatencies.percentile(99)));
            figures.put("deliveriesExpected", expected);
            figures.put("deliveredExactly", exact);
            figures.put("deliveredFolded", folded);
            figures.put("missing", expected - exact - folded);
            figures.put("lagP50Millis", round(lags.percentile(50)));
            figures.put("lagP99Millis", round(lags.percentile(99)));
            figures.put("lagMaxMillis", round(lags.percentile(100)));
            figures.put("eventsReceived", running.stream().mapToLong(w -> w.received).sum());
            figures.put("watchesEndedByTheServer", ended);
            figures.put("watchFailures", failures);
            figures.put("waitedAfterTheLoadSeconds", round(waitedAfterLoad));
            figures.put("request", "GET /k8s" + WORKLOADS + "?watch=true&resourceVersion=N, Accept: application/json,"
                    + " over HTTPS, one connection per watcher");
            figures.put("loadAverage", load.end());
            return figures;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            running.forEach(Watcher::close);
        }
    }

    /** The changes committed: per change its workload's index, resourceVersion and the instant its commit returned. */
    private static final class Commits {
        int count;
        int transactions;
        double seconds;
        int[] objects = new int[1024];
        long[] revisions = new long[1024];
        long[] committedAt = new long[1024];
        final Latencies commitLatencies = new Latencies();

        void add(int object, long revision, long at) {
            if (count == objects.length) {
                objects = Arrays.copyOf(objects, count * 2);
                revisions = Arrays.copyOf(revisions, count * 2);
                committedAt = Arrays.copyOf(committedAt, count * 2);
            }
            objects[count] = object;
            revisions[count] = revision;
            committedAt[count++] = at;
        }

        /** Per workload, the index of its last change, -1 for one not changed. */
        int[] lastChangeOf(int population) {
            int[] last = new int[population];
            Arrays.fill(last, -1);
            for (int i = 0; i < count; i++) {
                last[objects[i]] = i;
            }
            return last;
        }
    }

    private static Commits generate(SchedulerHost host, List<UUID> uids, int perSecond, int commitsPerSecond,
                                    Duration duration) {
        int perCommit = Math.max(1, perSecond / commitsPerSecond);
        long interval = TimeUnit.SECONDS.toNanos(1) / commitsPerSecond;
        long transactions = duration.toNanos() / interval;
        Commits commits = new Commits();
        Map<UUID, Integer> index = new HashMap<>();
        for (int i = 0; i < uids.size(); i++) {
            index.put(uids.get(i), i);
        }
        int next = 0;
        long start = System.nanoTime();
        for (long t = 0; t < transactions; t++) {
            long due = start + t * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            UUID[] batch = new UUID[perCommit];
            for (int i = 0; i < perCommit; i++) {
                batch[i] = uids.get(next);
                next = (next + 1) % uids.size();
            }
            long before = System.nanoTime();
            List<Map.Entry<UUID, Long>> changed = host.jdbc().sql("""
                            WITH changes AS (SELECT pg_advisory_xact_lock(:lock))
                            UPDATE workload SET version = version + 1,
                                   change_seq = nextval('workload_change_seq'), last_checkpoint = now()
                            FROM changes WHERE uid = ANY(:uids) RETURNING uid, change_seq""")
                    .param("lock", WORKLOAD_CHANGES_LOCK).param("uids", batch)
                    .query((rs, row) -> Map.entry(rs.getObject("uid", UUID.class), rs.getLong("change_seq"))).list();
            long after = System.nanoTime();
            commits.commitLatencies.add(after - before);
            assertThat(changed).hasSize(perCommit);
            for (Map.Entry<UUID, Long> change : changed) {
                commits.add(index.get(change.getKey()), change.getValue(), after);
            }
            commits.transactions++;
        }
        commits.seconds = (System.nanoTime() - start) / 1e9;
        return commits;
    }

    /**
     * One watch on a thread of its own: every event's workload (by its index in the population; others are counted
     * and left out), resourceVersion and the instant its line was read.
     */
    private static final class Watcher {
        final Thread thread;
        final Map<String, Integer> index;
        volatile Throwable failure;
        volatile long received;
        /** The watch ended before the benchmark closed it: the server ended it, or it failed. */
        volatile boolean ended;
        private volatile boolean closed;
        /** The response's stream: closing it ends a read blocked in it (closing the reader would wait for the read). */
        private volatile InputStream body;
        /** Per workload, the versions received in order, and when. */
        private final long[][] revisions;
        private final long[][] receivedAt;
        private final int[] counts;
        /** Per workload, the latest version received, read by the waiting thread. */
        private final AtomicLongArray latest;

        Watcher(HttpClient http, Kubeconfig kubeconfig, String revision, Map<String, Integer> index,
                CountDownLatch open) {
            this.index = index;
            int population = index.size();
            this.revisions = new long[population][];
            this.receivedAt = new long[population][];
            this.counts = new int[population];
            this.latest = new AtomicLongArray(population);
            this.thread = new Thread(() -> run(http, kubeconfig, revision, open), "k8s-watcher");
            this.thread.setDaemon(true);
        }

        private void run(HttpClient http, Kubeconfig kubeconfig, String revision, CountDownLatch open) {
            try {
                HttpResponse<InputStream> response = http.send(kubeconfig.request(WORKLOADS
                                        + "?watch=true&resourceVersion=" + revision + "&timeoutSeconds=1800",
                                "application/json").timeout(Duration.ofHours(1)).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                if (response.statusCode() != 200) {
                    throw new IllegalStateException("watch answered " + response.statusCode() + ": "
                            + new String(response.body().readAllBytes(), StandardCharsets.UTF_8));
                }
                body = response.body();
                BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 1 << 16);
                open.countDown();
                String line;
                while (!closed && (line = lines.readLine()) != null) {
                    long at = System.nanoTime();
                    received++;
                    if (line.startsWith("{\"type\":\"ERROR\"")) {
                        throw new IllegalStateException("the watch ended with " + line);
                    }
                    Matcher uid = JOB_UID.matcher(line);
                    Integer object = uid.find() ? index.get(uid.group(1)) : null;
                    if (object != null) {
                        Matcher version = RESOURCE_VERSION.matcher(line);
                        if (!version.find()) {
                            throw new IllegalStateException("an event without a resourceVersion: " + line);
                        }
                        record(object, Long.parseLong(version.group(1)), at);
                    }
                }
            } catch (IOException e) {
                if (!closed) {
                    failure = e;
                }
            } catch (RuntimeException | InterruptedException e) {
                if (!closed) {
                    failure = e;
                }
            } finally {
                ended = !closed;
                open.countDown();
            }
        }

        private void record(int object, long revision, long at) {
            int n = counts[object];
            if (revisions[object] == null) {
                revisions[object] = new long[8];
                receivedAt[object] = new long[8];
            } else if (n == revisions[object].length) {
                revisions[object] = Arrays.copyOf(revisions[object], n * 2);
                receivedAt[object] = Arrays.copyOf(receivedAt[object], n * 2);
            }
            revisions[object][n] = revision;
            receivedAt[object][n] = at;
            counts[object] = n + 1;
            latest.set(object, Math.max(latest.get(object), revision));
        }

        boolean hasEvery(int[] lastChange, Commits commits) {
            for (int object = 0; object < lastChange.length; object++) {
                if (lastChange[object] >= 0 && latest.get(object) < commits.revisions[lastChange[object]]) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Each committed change's delivery to this watcher: exactly (its version received), folded (a later version
         * received first), with its lag added to {@code lags}; {exact, folded}. Called once the watcher has every
         * object's last version.
         */
        long[] deliveries(Commits commits, Latencies lags) {
            long exact = 0;
            long folded = 0;
            for (int i = 0; i < commits.count; i++) {
                int object = commits.objects[i];
                long revision = commits.revisions[i];
                long[] versions = revisions[object];
                for (int k = 0; versions != null && k < counts[object]; k++) {
                    if (versions[k] >= revision) {
                        if (versions[k] == revision) {
                            exact++;
                        } else {
                            folded++;
                        }
                        lags.add(receivedAt[object][k] - commits.committedAt[i]);
                        break;
                    }
                }
            }
            return new long[] {exact, folded};
        }

        /** Ends the watch and waits for its thread, after which its records are read. */
        void close() {
            closed = true;
            thread.interrupt();
            try {
                InputStream stream = body;
                if (stream != null) {
                    stream.close();
                }
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (IOException e) {
                // closing a stream the server may have ended already
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@code jobSets} one-pod JobSets in one file, applied to a namespace of their own with a LocalQueue on a held
     * ClusterQueue: by {@code kubectl apply -f} (one request per object, after discovery and OpenAPI), and the same
     * objects in another namespace by one {@code POST /api/v1/manifests}; wall time of each. Without the kubectl
     * binary, the kubectl figure is missing and the reason is recorded.
     */
    static Map<String, Object> apply(SchedulerHost host, int jobSets, Path workDir) {
        PlatformClient api = host.api();
        PlatformClient.Response configured = api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: k8s-apply-rf}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: k8s-apply}
                spec:
                  stopPolicy: Hold
                  namespaceSelector: {}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: k8s-apply-rf, resources: [{name: cpu, nominalQuota: "10"}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: k8s-apply, namespace: k8s-apply-kubectl}
                spec: {clusterQueue: k8s-apply}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: k8s-apply, namespace: k8s-apply-manifests}
                spec: {clusterQueue: k8s-apply}
                """);
        assertThat(configured.status()).as(configured.body()).isEqualTo(200);
        LoadAverage load = LoadAverage.start();
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("jobSets", jobSets);
        Optional<Double> kubectl = kubectlApply(host, jobSets, workDir);
        figures.put("kubectlSeconds", kubectl.map(KueueShapeRun::round).orElse(null));
        figures.put("kubectl", Files.isExecutable(KUBECTL)
                ? KUBECTL + " apply -f (default validation: OpenAPI v3 first)"
                : KUBECTL + " is not installed: kubectl apply not measured");

        String file = file("k8s-apply-manifests", jobSets);
        long started = System.nanoTime();
        PlatformClient.Response applied = api.postYaml("/api/v1/manifests", file);
        double manifests = (System.nanoTime() - started) / 1e9;
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(stored(host, "k8s-apply-manifests")).as("every JobSet of the file stored").isEqualTo(jobSets);
        figures.put("manifestsSeconds", round(manifests));
        figures.put("fileBytes", file.getBytes(StandardCharsets.UTF_8).length);
        figures.put("loadAverage", load.end());
        return figures;
    }

    private static Optional<Double> kubectlApply(SchedulerHost host, int jobSets, Path workDir) {
        if (!Files.isExecutable(KUBECTL)) {
            System.out.println(KUBECTL + " is not installed: the kubectl apply benchmark is skipped");
            return Optional.empty();
        }
        try {
            Files.createDirectories(workDir);
            Path kubeconfig = Files.writeString(workDir.resolve("kubeconfig"), Kubeconfig.mint(host).yaml());
            Path file = Files.writeString(workDir.resolve("jobsets.yaml"), file("k8s-apply-kubectl", jobSets));
            List<String> command = List.of(KUBECTL.toString(), "--kubeconfig=" + kubeconfig, "apply", "-f",
                    file.toString());
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(workDir.resolve("kubectl-apply.log").toFile());
            builder.environment().keySet().removeIf(name -> name.toLowerCase(Locale.ROOT).endsWith("_proxy"));
            builder.environment().put("KUBECACHEDIR", workDir.resolve("kube-cache").toString());
            long started = System.nanoTime();
            Process process = builder.start();
            assertThat(process.waitFor(30, TimeUnit.MINUTES)).as("kubectl apply ended").isTrue();
            double seconds = (System.nanoTime() - started) / 1e9;
            String output = Files.readString(workDir.resolve("kubectl-apply.log"));
            assertThat(process.exitValue()).as("kubectl apply said:%n%s", output).isZero();
            assertThat(output.lines().filter(l -> l.endsWith(" created")).count()).as(output).isEqualTo(jobSets);
            assertThat(stored(host, "k8s-apply-kubectl")).as("every JobSet of the file stored").isEqualTo(jobSets);
            return Optional.of(seconds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long stored(SchedulerHost host, String namespace) {
        return host.jdbc().sql("SELECT count(*) FROM workload WHERE namespace = ? AND deleted_at IS NULL")
                .param(namespace).query(Long.class).single();
    }

    /** The file: {@code jobSets} one-pod JobSets of the held queue in {@code namespace}. */
    static String file(String namespace, int jobSets) {
        return IntStream.range(0, jobSets).mapToObj(i -> Manifests.onePodJobSet("apply-" + i,
                        Map.of("kueue.x-k8s.io/queue-name", "k8s-apply"), Map.of(), "1")
                .replaceFirst("(?m)^  name: (.*)$", "  name: $1\n  namespace: " + namespace))
                .collect(Collectors.joining("---\n"));
    }

    private static <T> HttpResponse<T> send(HttpClient http, HttpRequest request, HttpResponse.BodyHandler<T> body) {
        try {
            return http.send(request, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
