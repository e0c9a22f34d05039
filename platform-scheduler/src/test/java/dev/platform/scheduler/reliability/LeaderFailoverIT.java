package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader fail-over: two application instances on one database; only one runs
 * cycles; when it is killed the other takes over and admits within 15 s; every admission after
 * the take-over carries the new leader's epoch.
 */
class LeaderFailoverIT {

    @TempDir
    Path workDir;

    @Test
    void theFollowerTakesOverWithin15SecondsOfTheLeaderBeingKilled() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("leader_failover");
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
        PlatformProcess a = PlatformProcess.start(workDir, "a", PlatformProcess.database(db));
        PlatformProcess b = PlatformProcess.start(workDir, "b", PlatformProcess.database(db));
        try {
            a.awaitUp();
            b.awaitUp();
            a.client().postYaml("/api/v1/manifests", Manifests.queue("cq", "100", "Never"));
            for (int i = 0; i < 5; i++) {
                b.client().postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("before-" + i, "lq", "1", null));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> admitted(jdbc, "before-%") == 5);

            Map<String, Object> leader = jdbc.sql("SELECT epoch, holder FROM scheduler_leader").query().singleRow();
            long firstEpoch = ((Number) leader.get("epoch")).longValue();
            PlatformProcess leaderProcess = ((String) leader.get("holder")).startsWith(a.pid() + "@") ? a : b;
            PlatformProcess follower = leaderProcess == a ? b : a;
            assertThat(jdbc.sql("SELECT DISTINCT admitted_epoch FROM workload").query(Long.class).list())
                    .containsExactly(firstEpoch);
            assertThat(logOf(follower)).doesNotContain("is the scheduling leader");

            Instant killedAt = Instant.now();
            leaderProcess.kill();
            PlatformClient survivor = follower.client();
            for (int i = 0; i < 5; i++) {
                assertThat(survivor.postYaml("/api/v1/namespaces/team-a/workloads",
                        Manifests.job("after-" + i, "lq", "1", null)).status()).isEqualTo(201);
            }

            await().atMost(Duration.ofSeconds(15)).until(() -> admitted(jdbc, "after-%") == 5);
            Duration takeover = Duration.between(killedAt, Instant.now());
            long secondEpoch = jdbc.sql("SELECT epoch FROM scheduler_leader").query(Long.class).single();
            assertThat(secondEpoch).isGreaterThan(firstEpoch);
            assertThat(jdbc.sql("SELECT holder FROM scheduler_leader").query(String.class).single())
                    .startsWith(follower.pid() + "@");
            List<Long> epochsAfter = jdbc.sql("SELECT admitted_epoch FROM workload WHERE name LIKE 'after-%'")
                    .query(Long.class).list();
            assertThat(epochsAfter).containsOnly(secondEpoch);
            System.out.println("leader take-over and 5 admissions took " + takeover.toMillis() + " ms");
        } finally {
            a.close();
            b.close();
        }
    }

    private static long admitted(JdbcClient jdbc, String pattern) {
        return jdbc.sql("SELECT count(*) FROM workload WHERE state = 'Admitted' AND name LIKE ?")
                .param(pattern).query(Long.class).single();
    }

    private static String logOf(PlatformProcess process) throws java.io.IOException {
        return java.nio.file.Files.readString(process.log());
    }
}
