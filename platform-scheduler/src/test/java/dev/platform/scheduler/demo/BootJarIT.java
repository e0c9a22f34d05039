package dev.platform.scheduler.demo;

import dev.platform.scheduler.testsupport.PlatformClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The packaged boot jar, started as a user would ({@code java -jar}), with no database
 * configured: it must come up on its embedded PostgreSQL, and with the demo switch it must load
 * the seed's configuration. Runs in the integration-test phase, after the jar is built.
 */
class BootJarIT {

    @TempDir
    Path workDir;

    private Process process;

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    @Test
    void plainJarServesHealthUpOnTheEmbeddedDatabaseWithEmptyState() throws Exception {
        int port = freePort();
        process = start(port);
        PlatformClient api = new PlatformClient(port);

        awaitUp(api);

        assertThat(api.get("/api/v1/clusterqueues").json().get("items")).isEmpty();
        assertThat(Files.exists(workDir.resolve(".platform-data/pgdata/PG_VERSION"))).isTrue();
    }

    @Test
    void demoSwitchLoadsTheSeedConfiguration() throws Exception {
        int port = freePort();
        process = start(port, "--platform.demo.enabled=true");
        PlatformClient api = new PlatformClient(port);

        awaitUp(api);

        assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json()
                .at("/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota").asString()).isEqualTo("32");
        assertThat(api.get("/").body()).contains("tpu-training-cq");
    }

    private Process start(int port, String... extraArgs) throws IOException {
        Path jar = Path.of("target", "platform-scheduler.jar").toAbsolutePath();
        assertThat(jar).exists();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "--server.port=" + port));
        command.addAll(List.of(extraArgs));
        return new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(workDir.resolve("platform.log").toFile())
                .start();
    }

    private void awaitUp(PlatformClient api) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .failFast("the platform process exited", () -> !process.isAlive())
                .until(() -> api.get("/actuator/health").json().get("status").asString().equals("UP"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
