package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.PrometheusScrape;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A burst of submissions, the application killed with SIGKILL in the middle of it, restarted on the same
 * database. Every submission that got a 2xx exists, no workload was admitted twice, and the queue's usage
 * equals the sum of admitted requests. Submissions from many clients at once are committed in groups: each
 * acknowledged one survives, the change feed orders them as they committed, and a retry with the same
 * Idempotency-Key after the restart answers the workload the first request stored.
 */
class CrashRecoveryIT {

    private static final int BURST = 240;
    private static final int KILL_AFTER = 80;
    private static final int NOMINAL_CPU = 30;
    private static final int CLIENTS = 16;

    @TempDir
    Path workDir;

    @Test
    void nothingAcknowledgedIsLostAndNothingIsAdmittedTwice() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("crash_recovery");
        Set<String> acknowledged = ConcurrentHashMap.newKeySet();

        PlatformProcess first = PlatformProcess.start(workDir, "first", PlatformProcess.database(db)).awaitUp();
        PlatformClient api = first.client();
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", Integer.toString(NOMINAL_CPU), "Never"))
                .status()).isEqualTo(200);

        AtomicInteger next = new AtomicInteger();
        CountDownLatch enoughAcknowledged = new CountDownLatch(KILL_AFTER);
        ExecutorService clients = Executors.newFixedThreadPool(8);
        for (int t = 0; t < 8; t++) {
            clients.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < BURST) {
                    String name = "burst-" + i;
                    try {
                        if (api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", "1", null))
                                .status() == 201) {
                            acknowledged.add(name);
                            enoughAcknowledged.countDown();
                        }
                    } catch (RuntimeException connectionRefused) {
                        // the process is gone: this submission was never acknowledged
                    }
                }
            });
        }
        assertThat(enoughAcknowledged.await(120, TimeUnit.SECONDS)).isTrue();
        first.kill();
        clients.shutdown();
        assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).isTrue();

        try (PlatformProcess second = PlatformProcess.start(workDir, "second", PlatformProcess.database(db)).awaitUp()) {
            PlatformClient restarted = second.client();
            for (String name : acknowledged) {
                assertThat(restarted.get("/api/v1/namespaces/team-a/workloads/" + name).status())
                        .as("acknowledged %s survives the crash", name).isEqualTo(200);
            }
            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
            long stored = jdbc.sql("SELECT count(*) FROM workload").query(Long.class).single();
            int expectedAdmitted = (int) Math.min(NOMINAL_CPU, stored);
            await().atMost(Duration.ofSeconds(60)).until(() -> jdbc.sql(
                    "SELECT count(*) FROM workload WHERE state = 'Admitted'").query(Long.class).single() == expectedAdmitted);

            List<Map<String, Object>> admittedTwice = jdbc.sql("""
                    SELECT workload_uid, count(*) FROM workload_event WHERE type = 'Admitted' AND status = 'True'
                    GROUP BY workload_uid HAVING count(*) > 1""").query().listOfRows();
            assertThat(admittedTwice).isEmpty();
            long usage = jdbc.sql("SELECT coalesce(sum(amount), 0) FROM workload_usage").query(Long.class).single();
            long admittedRequests = jdbc.sql("""
                    SELECT coalesce(sum((p ->> 'count')::int * (p -> 'requests' ->> 'cpu')::numeric), 0)
                    FROM workload, jsonb_array_elements(pod_sets) p WHERE state = 'Admitted'""")
                    .query(Long.class).single();
            assertThat(usage).isEqualTo(admittedRequests).isEqualTo(expectedAdmitted);
            assertThat(restarted.get("/api/v1/clusterqueues/cq").json().at("/usage/0/used").asString())
                    .isEqualTo(Long.toString(usage));
            assertThat(acknowledged.size()).isGreaterThanOrEqualTo(KILL_AFTER).isLessThanOrEqualTo((int) stored);
        }
    }

    @Test
    void groupCommittedSubmissionsSurviveAKillInCommitOrderAndRetriesAnswerTheSame() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("crash_recovery_groups");
        Map<String, String> acknowledged = new ConcurrentHashMap<>();

        PlatformProcess first = PlatformProcess.start(workDir, "first", PlatformProcess.database(db)).awaitUp();
        PlatformClient api = first.client();
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", Integer.toString(NOMINAL_CPU), "Never"))
                .status()).isEqualTo(200);
        // Held: nothing is admitted, so each row keeps the change sequence of its submission.
        assertThat(api.post("/api/v1/clusterqueues/cq/stop", "application/json", "").status()).isEqualTo(200);

        AtomicInteger next = new AtomicInteger();
        CountDownLatch enoughAcknowledged = new CountDownLatch(KILL_AFTER);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        for (int t = 0; t < CLIENTS; t++) {
            clients.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < BURST) {
                    String name = "group-" + i;
                    try {
                        PlatformClient.Response response = submitWithKey(api, name);
                        if (response.status() == 201) {
                            acknowledged.put(name, response.json().get("uid").asString());
                            enoughAcknowledged.countDown();
                        }
                    } catch (RuntimeException connectionRefused) {
                        // the process is gone: this submission was never acknowledged
                    }
                }
            });
        }
        assertThat(enoughAcknowledged.await(120, TimeUnit.SECONDS)).isTrue();
        PrometheusScrape metrics = PrometheusScrape.parse(api.get("/actuator/prometheus", "text/plain").body());
        first.kill();
        clients.shutdown();
        assertThat(clients.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        assertThat(value(metrics, "platform_submission_group_size_sum"))
                .as("some transaction wrote a group of submissions")
                .isGreaterThan(value(metrics, "platform_submission_group_size_count"));

        try (PlatformProcess second = PlatformProcess.start(workDir, "second", PlatformProcess.database(db)).awaitUp()) {
            PlatformClient restarted = second.client();
            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
            acknowledged.forEach((name, uid) -> assertThat(jdbc.sql("SELECT uid::text FROM workload WHERE name = ?")
                    .param(name).query(String.class).list()).as("acknowledged %s survives, once", name).containsExactly(uid));

            // In change-sequence order, the transaction ids of the submissions never go back: the writers' lock is
            // held from before a transaction's first write to its commit, so transaction ids come in commit order,
            // and the feed's order is the commit order. A group's submissions share their transaction.
            // A row's own xmin moves when the loop records why it waits; its first timeline entry, appended by the
            // submission and never updated, keeps the submission's transaction.
            List<Long> transactions = jdbc.sql("""
                    SELECT (SELECT e.xmin::text::bigint FROM workload_event e WHERE e.workload_uid = w.uid
                            ORDER BY e.id LIMIT 1)
                    FROM workload w ORDER BY w.change_seq""").query(Long.class).list();
            assertThat(transactions).isSorted();
            assertThat(new java.util.HashSet<>(transactions)).as("some transaction stored a group")
                    .hasSizeLessThan(transactions.size());

            Map<String, String> stored = new java.util.HashMap<>();
            jdbc.sql("SELECT name, uid::text FROM workload").query((rs, n) -> stored.put(rs.getString(1), rs.getString(2)))
                    .list();
            for (int i = 0; i < BURST; i++) {
                String name = "group-" + i;
                PlatformClient.Response retry = submitWithKey(restarted, name);
                assertThat(retry.status()).as("retry of %s", name).isEqualTo(201);
                if (stored.containsKey(name)) {
                    assertThat(retry.json().get("uid").asString()).as("retry of %s answers what was stored", name)
                            .isEqualTo(stored.get(name));
                }
            }
            assertThat(jdbc.sql("SELECT count(*) FROM workload").query(Long.class).single())
                    .as("every submission once, whatever its first attempt became").isEqualTo(BURST);
        }
    }

    private static double value(PrometheusScrape metrics, String name) {
        return metrics.samples().stream().filter(sample -> sample.name().equals(name))
                .mapToDouble(PrometheusScrape.Sample::value).sum();
    }

    private static PlatformClient.Response submitWithKey(PlatformClient api, String name) {
        return api.send(api.request("/api/v1/namespaces/team-a/workloads")
                .header("Content-Type", "application/yaml").header("Idempotency-Key", name)
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(Manifests.job(name, "lq", "1", null))));
    }
}
