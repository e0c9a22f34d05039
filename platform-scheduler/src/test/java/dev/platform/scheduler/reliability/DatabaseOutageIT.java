package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.BrowserSession;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * PostgreSQL goes away under a burst of submissions: stopped and restarted on the same port and
 * data directory, then every application session cut with {@code pg_terminate_backend}. Clients
 * retry each submission with the same {@code Idempotency-Key} until it is acknowledged. While the
 * database is down every API call, the agents' long poll included, answers 503 with
 * {@code Retry-After} and a problem JSON, never a 500 or a stack trace, and a console page 503 with a page
 * saying the database is unreachable, to a logged-in browser as to a bearer token; afterwards the scheduling
 * loop resumes, every acknowledged submission exists once, nothing is admitted twice and the
 * queue's usage is the sum of the admitted requests. {@code -Dplatform.fault.scale=<n>} (the
 * {@code reliability-large} profile) multiplies the burst and the number of outages.
 */
class DatabaseOutageIT {

    private static final int SCALE = Integer.getInteger("platform.fault.scale", 1);
    private static final int BURST = 60 * SCALE;
    private static final int NOMINAL_CPU = 40;
    private static final String AGENT_TOKEN = "outage-agent-token";
    private static final String CONSOLE_PASSWORD = "outage-console-password";
    private static final Duration PATIENCE = Duration.ofSeconds(120);

    /** Kept when the test fails: the scheduler's log is there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<String> wrongAnswers = new ConcurrentLinkedQueue<>();

    @Test
    void whilePostgresIsDownTheApiAnswers503AndNothingAcknowledgedIsLostOrAdmittedTwice() throws Exception {
        int port = freePort();
        Path data = workDir.resolve("pgdata");
        EmbeddedPostgres postgres = startPostgres(port, data);
        String url = postgres.getJdbcUrl("postgres", "postgres");
        List<String> arguments = new ArrayList<>(PlatformProcess.database(new TestDatabase.Connection(url, "postgres",
                "postgres")));
        arguments.add("--platform.agents.tokens.outage=" + AGENT_TOKEN);
        ExecutorService clients = Executors.newFixedThreadPool(4);
        try (PlatformProcess platform = PlatformProcess.start(workDir, "scheduler", arguments).awaitUp()) {
            PlatformClient api = platform.client();
            assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", Integer.toString(NOMINAL_CPU), "Never"))
                    .status()).isEqualTo(200);
            assertThat(poll(api).status()).isEqualTo(200);
            assertThat(api.postJson("/api/v1/users", "{\"name\": \"watcher\", \"clusterRole\": \"Ops\","
                    + " \"password\": \"" + CONSOLE_PASSWORD + "\"}").status()).isEqualTo(201);
            BrowserSession browser = new BrowserSession(platform.port());
            assertThat(browser.logIn("watcher", CONSOLE_PASSWORD).header("Location")).doesNotContain("error");
            assertThat(browser.get("/queues").status()).isEqualTo(200);

            AtomicInteger next = new AtomicInteger();
            for (int t = 0; t < 4; t++) {
                clients.submit(() -> submitUntilAcknowledged(api, next));
            }
            for (int outage = 0; outage < SCALE; outage++) {
                int before = acknowledged.size();
                await().atMost(PATIENCE).until(() -> acknowledged.size() >= Math.min(BURST, before + BURST / (3 * SCALE)));
                postgres.close();
                assertAnswers503WhileDown(api);
                assertConsoleSaysSoWhileDown(api, browser);
                assertThat(Files.readString(platform.log())).as("the browser's session lookup failed so")
                        .contains("database unavailable, console page /queues answered 503: "
                                + "CannotCreateTransactionException: Could not open JPA EntityManager for transaction");
                postgres = startPostgres(port, data);
                await().atMost(PATIENCE).ignoreExceptions().until(() -> poll(api).status() == 200);
            }
            for (int cut = 0; cut < 3 * SCALE; cut++) {
                int before = acknowledged.size();
                await().atMost(PATIENCE).until(() -> acknowledged.size() > before || acknowledged.size() == BURST);
                endEveryApplicationSession(url);
            }
            clients.shutdown();
            assertThat(clients.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();

            assertThat(wrongAnswers).as("answers other than 2xx or 503 with Retry-After; the scheduler's log: %s",
                    platform.log()).isEmpty();
            assertThat(acknowledged).hasSize(BURST);
            assertNothingLostNorAdmittedTwice(api, JdbcClient.create(new DriverManagerDataSource(url, "postgres",
                    "postgres")));
            System.out.printf("database outage: %d submissions, %d outage(s), %d connection cut(s), answers %s%n",
                    BURST, SCALE, 3 * SCALE, statuses);
        } finally {
            clients.shutdownNow();
            postgres.close();
        }
    }

    private void submitUntilAcknowledged(PlatformClient api, AtomicInteger next) {
        int i;
        while ((i = next.getAndIncrement()) < BURST) {
            String name = "outage-" + i;
            while (!acknowledged.contains(name)) {
                Response response;
                try {
                    response = api.send("POST", "/api/v1/namespaces/team-a/workloads", Map.of("Idempotency-Key", name),
                            "application/yaml", Manifests.job(name, "lq", "1", null));
                } catch (RuntimeException timeoutOrReset) {
                    continue;
                }
                statuses.computeIfAbsent(response.status(), s -> new AtomicInteger()).incrementAndGet();
                if (response.status() / 100 == 2) {
                    acknowledged.add(name);
                } else if (!isUnavailable(response)) {
                    wrongAnswers.add(name + ": " + response.status() + " " + response.body());
                    return;
                }
            }
        }
    }

    private void assertAnswers503WhileDown(PlatformClient api) {
        for (Response response : List.of(api.get("/api/v1/clusterqueues/cq"), poll(api),
                api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("while-down", "lq", "1", null)),
                api.get("/api/v1/namespaces/team-a/workloads?limit=5"))) {
            assertThat(isUnavailable(response)).as("%d %s %s", response.status(), response.headers(), response.body())
                    .isTrue();
        }
        await().atMost(PATIENCE).until(() -> statuses.getOrDefault(503, new AtomicInteger()).get() > 0);
    }

    /** A console page, to a browser's session (read from PostgreSQL) and to a bearer token alike. */
    private static void assertConsoleSaysSoWhileDown(PlatformClient api, BrowserSession browser) {
        for (Response page : List.of(browser.get("/queues"), api.get("/queues", "text/html"))) {
            assertThat(page.status()).as("%s %s", page.headers(), page.body()).isEqualTo(503);
            assertThat(page.contentType()).startsWith("text/html");
            assertThat(page.header("Retry-After")).isNotNull();
            assertThat(page.body()).contains("database is unreachable", "Try again")
                    .doesNotContain("Exception", "\tat ");
        }
    }

    private static boolean isUnavailable(Response response) {
        return response.status() == 503 && response.header("Retry-After") != null
                && response.contentType().startsWith("application/problem+json")
                && !response.body().contains("Exception") && !response.body().contains("\tat ");
    }

    private void assertNothingLostNorAdmittedTwice(PlatformClient api, JdbcClient jdbc) {
        for (String name : acknowledged) {
            assertThat(retryingWhileUnavailable(api, "/api/v1/namespaces/team-a/workloads/" + name).status()).as(name)
                    .isEqualTo(200);
        }
        assertThat(retryingWhileUnavailable(api, "/api/v1/namespaces/team-a/workloads/while-down").status())
                .isEqualTo(404);
        assertThat(jdbc.sql("SELECT count(*) FROM workload").query(Long.class).single()).isEqualTo(BURST);
        int expectedAdmitted = Math.min(NOMINAL_CPU, BURST);
        await().atMost(PATIENCE).until(() -> jdbc.sql("SELECT count(*) FROM workload WHERE state = 'Admitted'")
                .query(Long.class).single() == expectedAdmitted);
        assertThat(jdbc.sql("""
                SELECT workload_uid FROM workload_event WHERE type = 'Admitted' AND status = 'True'
                GROUP BY workload_uid HAVING count(*) > 1""").query(String.class).list()).isEmpty();
        long usage = jdbc.sql("SELECT coalesce(sum(amount), 0) FROM workload_usage").query(Long.class).single();
        long admittedRequests = jdbc.sql("""
                SELECT coalesce(sum((p ->> 'count')::int * (p -> 'requests' ->> 'cpu')::numeric), 0)
                FROM workload, jsonb_array_elements(pod_sets) p WHERE state = 'Admitted'""").query(Long.class).single();
        assertThat(usage).isEqualTo(admittedRequests).isEqualTo(expectedAdmitted);
        assertThat(retryingWhileUnavailable(api, "/api/v1/clusterqueues/cq").json().at("/usage/0/used").asString())
                .isEqualTo(Long.toString(usage));
    }

    /**
     * A GET as a client following the contract makes it: a 503 is retried. Right after the last cut the
     * pool may still lend a connection the server ended, which fails its request with a 503 once.
     */
    private static Response retryingWhileUnavailable(PlatformClient api, String path) {
        return await().atMost(PATIENCE).until(() -> api.get(path), r -> !isUnavailable(r));
    }

    private static Response poll(PlatformClient api) {
        return api.send("GET", "/api/v1/agent/clusters/outage/commands?waitSeconds=1",
                Map.of("Authorization", "Bearer " + AGENT_TOKEN), null, null);
    }

    /** What an operator's {@code pg_terminate_backend} or a network cut does to every open connection. */
    private static void endEveryApplicationSession(String url) {
        JdbcClient.create(new DriverManagerDataSource(url, "postgres", "postgres")).sql("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()""").query(Long.class).single();
    }

    private static EmbeddedPostgres startPostgres(int port, Path data) throws IOException {
        return EmbeddedPostgres.builder().setPort(port).setDataDirectory(data).setCleanDataDirectory(false)
                .setServerConfig("fsync", "off").setServerConfig("full_page_writes", "off").start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
