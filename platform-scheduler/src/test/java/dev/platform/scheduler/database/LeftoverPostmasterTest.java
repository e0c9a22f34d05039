package dev.platform.scheduler.database;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a start makes of the {@code postmaster.pid} it finds: a dead process is PostgreSQL's to clean
 * up, a pid now held by another program is a stale file, and a live {@code postgres} is ours only
 * when it was unpacked under this data directory and serves it. The live processes here are copies of
 * {@code sleep} named {@code postgres}: the decision reads the executable, not what it does.
 */
@DisabledOnOs(OS.WINDOWS)
class LeftoverPostmasterTest {

    @TempDir
    Path dataDir;
    Path pgdata;
    Path binaries;
    final List<Process> started = new ArrayList<>();

    @BeforeEach
    void layout() throws IOException {
        pgdata = Files.createDirectories(dataDir.resolve("pgdata"));
        binaries = Files.createDirectories(dataDir.resolve("binaries"));
    }

    @AfterEach
    void stopProcesses() throws InterruptedException {
        for (Process process : started) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aCleanlyStoppedOrDeadServerLeavesNothingToStop() throws Exception {
        assertThat(LeftoverPostmaster.find(pgdata)).isEmpty();

        Process gone = start(Path.of("/bin/sleep"));
        gone.destroyForcibly();
        gone.waitFor(10, TimeUnit.SECONDS);
        writePidFile(gone.pid(), pgdata);

        assertThat(LeftoverPostmaster.find(pgdata)).isEmpty();
        assertThat(pgdata.resolve(LeftoverPostmaster.PID_FILE)).as("PostgreSQL removes it itself").exists();
    }

    @Test
    void aPidNowHeldByAnotherProgramIsAStaleFileAndRemoved() throws Exception {
        writePidFile(start(Path.of("/bin/sleep")).pid(), pgdata);

        assertThat(LeftoverPostmaster.find(pgdata)).isEmpty();
        assertThat(pgdata.resolve(LeftoverPostmaster.PID_FILE)).doesNotExist();
    }

    @Test
    void aPostgresUnpackedUnderThisDataDirectoryAndServingItIsOurs() throws Exception {
        Path postgres = postgresAt(binaries.resolve("PG-0123/bin"));
        long pid = start(postgres).pid();
        writePidFile(pid, pgdata);

        LeftoverPostmaster leftover = LeftoverPostmaster.find(pgdata).orElseThrow();

        assertThat(leftover.pid()).isEqualTo(pid);
        assertThat(leftover.port()).isEqualTo("54321");
        assertThat(leftover.isOurs(binaries, pgdata)).isTrue();
    }

    @Test
    void aPostgresFromElsewhereOrServingAnotherDirectoryIsRefused() throws Exception {
        long foreign = start(postgresAt(dataDir.resolve("elsewhere/bin"))).pid();
        writePidFile(foreign, pgdata);
        LeftoverPostmaster notUnpackedHere = LeftoverPostmaster.find(pgdata).orElseThrow();

        assertThat(notUnpackedHere.isOurs(binaries, pgdata)).isFalse();
        assertThat(notUnpackedHere.refusal(pgdata).getMessage()).contains("in use by process " + foreign)
                .contains("port 54321");
        assertThat(notUnpackedHere.refusal(pgdata).action()).contains("platform.embedded-db.data-dir");

        Path otherData = Files.createDirectories(dataDir.resolve("other-pgdata"));
        writePidFile(start(postgresAt(binaries.resolve("PG-0123/bin"))).pid(), otherData);
        Files.copy(otherData.resolve(LeftoverPostmaster.PID_FILE), pgdata.resolve(LeftoverPostmaster.PID_FILE),
                StandardCopyOption.REPLACE_EXISTING);

        assertThat(LeftoverPostmaster.find(pgdata).orElseThrow().isOurs(binaries, pgdata)).isFalse();
    }

    private Path postgresAt(Path bin) throws IOException {
        Path postgres = Files.createDirectories(bin).resolve("postgres");
        if (!Files.exists(postgres)) {
            Files.copy(Path.of("/bin/sleep"), postgres);
            assertThat(postgres.toFile().setExecutable(true)).isTrue();
        }
        return postgres;
    }

    private Process start(Path executable) throws IOException {
        Process process = new ProcessBuilder(executable.toString(), "600").start();
        started.add(process);
        return process;
    }

    /** PostgreSQL's layout: pid, data directory, start time, port, socket directory, listen address, ... */
    private static void writePidFile(long pid, Path servedDirectory) throws IOException {
        Files.write(servedDirectory.resolve(LeftoverPostmaster.PID_FILE),
                List.of(Long.toString(pid), servedDirectory.toString(), "1764633600", "54321", "/tmp", "localhost"));
    }
}
