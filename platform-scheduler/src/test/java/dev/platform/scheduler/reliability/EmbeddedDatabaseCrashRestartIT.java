package dev.platform.scheduler.reliability;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The default install (the packaged jar on its embedded PostgreSQL, as the README starts it) killed
 * with SIGKILL and started again at once: it comes back on the first try, with every acknowledged
 * submission. First the JVM alone is killed, and its watchdog stops the server it leaves; then the
 * watchdog is killed with it, and the next start stops the orphaned server itself. Another scheduler
 * on the data directory then in use is refused at once, with a short report and no stack trace.
 */
class EmbeddedDatabaseCrashRestartIT {

    private static final int SUBMISSIONS = 20;

    @TempDir
    Path workDir;

    @Test
    void aKilledSchedulerStartsAgainAtOnceWithEveryAcknowledgedSubmission() throws Exception {
        List<String> acknowledged = new ArrayList<>();
        PlatformProcess first = PlatformProcess.start(workDir, "first", List.of()).awaitUp();
        assertThat(first.client().postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status())
                .isEqualTo(200);
        submit(first.client(), "before-first-kill", acknowledged);
        long firstServer = postmasterPid();

        first.kill();
        await("the watchdog stops the server of a killed JVM").atMost(Duration.ofSeconds(60))
                .until(() -> !alive(firstServer));

        PlatformProcess second = PlatformProcess.start(workDir, "second", List.of()).awaitUp();
        assertAllThere(second.client(), acknowledged);
        submit(second.client(), "before-second-kill", acknowledged);
        long secondServer = postmasterPid();
        ProcessHandle watchdog = ProcessHandle.of(second.pid()).orElseThrow().children()
                .filter(child -> child.info().commandLine().orElse("").contains("embedded-postgres-watchdog"))
                .findFirst().orElseThrow();

        watchdog.destroyForcibly();
        await().atMost(Duration.ofSeconds(30)).until(() -> !watchdog.isAlive());
        second.kill();
        assertThat(alive(secondServer)).as("with its watchdog gone, the killed JVM's server stays as an orphan").isTrue();

        try (PlatformProcess third = PlatformProcess.start(workDir, "third", List.of()).awaitUp()) {
            assertAllThere(third.client(), acknowledged);
            assertThat(alive(secondServer)).isFalse();
            String log = Files.readString(third.log());
            assertThat(log).contains("Stopped the PostgreSQL server (pid " + secondServer + ",")
                    .doesNotContain("another postmaster");

            aSecondSchedulerOnTheSameDataDirectoryIsRefusedAtOnce(third);
        }
        assertThat(Files.readString(workDir.resolve("second.log"))).doesNotContain("another postmaster");
    }

    /** Another scheduler started on the data directory {@code running} uses: refused with a short report. */
    private void aSecondSchedulerOnTheSameDataDirectoryIsRefusedAtOnce(PlatformProcess running) throws Exception {
        try (PlatformProcess another = PlatformProcess.start(workDir, "another", List.of())) {
            assertThat(another.awaitExit(Duration.ofSeconds(180))).isNotZero();
            List<String> log = Files.readAllLines(another.log());
            assertThat(log).contains("The data directory " + workDir.resolve(".platform-data").toRealPath()
                    + " is in use by another running scheduler (pid " + running.pid() + ").");
            assertThat(log).noneMatch(line -> line.startsWith("\tat ")).noneMatch(line -> line.contains("postmaster"));
            assertThat(running.client().get("/actuator/health").json().get("status").asString()).isEqualTo("UP");
        }
    }

    private static void submit(PlatformClient api, String prefix, List<String> acknowledged) {
        for (int i = 0; i < SUBMISSIONS; i++) {
            String name = prefix + "-" + i;
            assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", "1", null))
                    .status()).isEqualTo(201);
            acknowledged.add(name);
        }
    }

    private static void assertAllThere(PlatformClient api, List<String> acknowledged) {
        for (String name : acknowledged) {
            assertThat(api.get("/api/v1/namespaces/team-a/workloads/" + name).status())
                    .as("acknowledged %s survives the crash", name).isEqualTo(200);
        }
    }

    private long postmasterPid() throws IOException {
        return Long.parseLong(Files.readAllLines(workDir.resolve(".platform-data/pgdata/postmaster.pid")).get(0).strip());
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
