package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader paused with SIGSTOP keeps its database connection and so its advisory lock; the
 * follower sees it stop renewing, ends its session past the lease (3 s here) and takes over. When
 * the old leader is resumed it finds its lock gone and steps down: every admission after the
 * take-over carries the new epoch, and the old leader does not lead again.
 */
class LeaderPauseIT {

    private static final List<String> LEASE = List.of("--platform.scheduler.leader-lease=3s");

    @TempDir
    Path workDir;

    @Test
    void theFollowerTakesOverFromAPausedLeaderWhichStepsDownWhenResumed() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("leader_pause");
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
        PlatformProcess a = PlatformProcess.start(workDir, "a", arguments(db));
        PlatformProcess b = PlatformProcess.start(workDir, "b", arguments(db));
        PlatformProcess paused = null;
        try {
            a.awaitUp();
            b.awaitUp();
            a.client().postYaml("/api/v1/manifests", Manifests.queue("cq", "100", "Never"));
            b.client().postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("before", "lq", "1", null));
            await().atMost(Duration.ofSeconds(30)).until(() -> admitted(jdbc, "before") == 1);
            Map<String, Object> leader = jdbc.sql("SELECT epoch, holder FROM scheduler_leader").query().singleRow();
            long firstEpoch = ((Number) leader.get("epoch")).longValue();
            PlatformProcess leaderProcess = ((String) leader.get("holder")).startsWith(a.pid() + "@") ? a : b;
            PlatformProcess follower = leaderProcess == a ? b : a;

            leaderProcess.pause();
            paused = leaderProcess;
            for (int i = 0; i < 3; i++) {
                assertThat(follower.client().postYaml("/api/v1/namespaces/team-a/workloads",
                        Manifests.job("during-" + i, "lq", "1", null)).status()).isEqualTo(201);
            }

            await().atMost(Duration.ofSeconds(30)).until(() -> admitted(jdbc, "during-%") == 3);
            long secondEpoch = jdbc.sql("SELECT epoch FROM scheduler_leader").query(Long.class).single();
            assertThat(secondEpoch).isGreaterThan(firstEpoch);
            assertThat(jdbc.sql("SELECT holder FROM scheduler_leader").query(String.class).single())
                    .startsWith(follower.pid() + "@");
            assertThat(Files.readString(follower.log())).contains("ended the session of leader");

            leaderProcess.resume();
            paused = null;
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(leaderProcess.log()),
                    log -> log.contains("stepping down") || log.contains("gives up scheduling leadership"));
            assertThat(follower.client().postYaml("/api/v1/namespaces/team-a/workloads",
                    Manifests.job("after", "lq", "1", null)).status()).isEqualTo(201);
            await().atMost(Duration.ofSeconds(30)).until(() -> admitted(jdbc, "after") == 1);

            assertThat(jdbc.sql("SELECT DISTINCT admitted_epoch FROM workload WHERE name <> 'before'")
                    .query(Long.class).list()).containsExactly(secondEpoch);
            assertThat(jdbc.sql("SELECT epoch FROM scheduler_leader").query(Long.class).single()).isEqualTo(secondEpoch);
        } finally {
            if (paused != null) {
                paused.resume();
            }
            a.close();
            b.close();
        }
    }

    private static List<String> arguments(TestDatabase.Connection db) {
        List<String> args = new ArrayList<>(PlatformProcess.database(db));
        args.addAll(LEASE);
        return args;
    }

    private static long admitted(JdbcClient jdbc, String pattern) {
        return jdbc.sql("SELECT count(*) FROM workload WHERE state = 'Admitted' AND name LIKE ?")
                .param(pattern).query(Long.class).single();
    }
}
