package dev.platform.scheduler.demo;

import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packaged boot jar, started as a user would ({@code java -jar}), with no database
 * configured: it must come up on its embedded PostgreSQL. (The demo switch's seed is checked where the README's
 * demo runs, {@link ReadmeHotswapIT}.) Runs in the integration-test phase, after the jar is built.
 */
class BootJarIT {

    @TempDir
    Path workDir;

    @Test
    void plainJarServesHealthUpOnTheEmbeddedDatabaseWithEmptyState() throws Exception {
        PlatformProcess platform = PlatformProcess.start(PlatformProcess.BOOT_JAR, workDir, "plain", List.of())
                .awaitUp();
        try (platform) {
            PlatformClient api = platform.client();

            assertThat(api.get("/api/v1/clusterqueues").json().get("items")).isEmpty();
            assertThat(Files.exists(workDir.resolve(".platform-data/pgdata/PG_VERSION"))).isTrue();
        }
        List<String> log = Files.readAllLines(platform.log()).stream().filter(line -> !line.isBlank()).toList();
        assertThat(log).as("a clean start on a new database and a stop with SIGTERM")
                .noneMatch(line -> line.contains(" ERROR ")).noneMatch(line -> line.startsWith("\tat "))
                .noneMatch(line -> line.contains("already exists, skipping"));
        assertThat(log.get(log.size() - 1)).as("the database stops last, after everything that uses it")
                .contains("Embedded PostgreSQL stopped");
    }
}
