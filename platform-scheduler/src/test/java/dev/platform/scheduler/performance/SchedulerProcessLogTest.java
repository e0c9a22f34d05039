package dev.platform.scheduler.performance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** A restarted scheduler's log is appended to: the start-up figures read only what this launch logged. */
class SchedulerProcessLogTest {

    private static final String REBUILT = "d.p.scheduler.scheduling.SchedulingLoop  : scheduler state rebuilt: 15000";

    @Test
    void aLineOfAnEarlierRunInTheSameLogIsNotThisLaunchs(@TempDir Path directory) throws IOException {
        Path log = directory.resolve("scheduler-2.log");
        Files.writeString(log, "2026-11-30T16:36:27.040Z  INFO 32347 --- " + REBUILT + "\n");
        Instant launched = Instant.parse("2026-11-30T17:20:45Z");

        assertThat(SchedulerProcessHost.logged(log, "scheduler state rebuilt", launched)).isNull();

        Files.writeString(log, "2026-11-30T17:23:02.460Z  INFO 7103 --- " + REBUILT + "\n",
                StandardOpenOption.APPEND);
        assertThat(SchedulerProcessHost.logged(log, "scheduler state rebuilt", launched))
                .isEqualTo(Instant.parse("2026-11-30T17:23:02.460Z"));
    }
}
