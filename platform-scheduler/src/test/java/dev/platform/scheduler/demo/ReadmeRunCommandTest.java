package dev.platform.scheduler.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's run command, as its shell runs it, with a stand-in for {@code java} that only stays alive: a
 * {@code kill} of that shell (or Ctrl-C) stops both the agent and the scheduler, and nothing is left running.
 */
class ReadmeRunCommandTest {

    private static final Path README = Path.of("..", "README.md");
    private static final String PACKAGE_THEN_SHELL = "./mvnw -q -DskipTests package && bash -c '";

    @TempDir
    Path dir;

    @Test
    void killingTheCommandsShellStopsTheAgentAndTheScheduler() throws Exception {
        Path pids = dir.resolve("pids");
        Path java = dir.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho $$ >> \"" + pids + "\"\nexec sleep 600\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", shellScript()).directory(dir.toFile())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out").toFile());
        builder.environment().put("PATH", dir + ":" + System.getenv("PATH"));
        Process shell = builder.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> started(pids).size() == 2);
            List<Long> javas = started(pids);

            shell.destroy();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(javas)
                    .as("processes of the command still running").noneMatch(ReadmeRunCommandTest::alive));
            assertThat(shell.waitFor(Duration.ofSeconds(30).toMillis(), TimeUnit.MILLISECONDS))
                    .isTrue();
        } finally {
            shell.destroyForcibly();
            started(pids).forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    /** What the README's command runs after building: the script of its {@code bash -c '...'}. */
    private static String shellScript() throws IOException {
        String line = Files.readAllLines(README).stream().filter(l -> l.startsWith(PACKAGE_THEN_SHELL)).findFirst()
                .orElseThrow(() -> new AssertionError("README.md has no line starting " + PACKAGE_THEN_SHELL));
        assertThat(line).endsWith("'");
        return line.substring(PACKAGE_THEN_SHELL.length(), line.length() - 1);
    }

    private static List<Long> started(Path pids) throws IOException {
        return Files.exists(pids) ? Files.readAllLines(pids).stream().filter(l -> !l.isBlank()).map(Long::parseLong).toList()
                : List.of();
    }

    private static boolean alive(long pid) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        return process.isPresent() && process.get().isAlive();
    }
}
