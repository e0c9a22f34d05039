package dev.platform.scheduler.database;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A PostgreSQL server still running on the data directory when this scheduler starts: the scheduler
 * that started it was killed (SIGKILL, the OOM killer) before it could stop it, and its watchdog did
 * not stop it either. PostgreSQL's own {@code postmaster.pid} names it: the first line is its process
 * id, the second its data directory, the fourth its port.
 *
 * <p>It is ours when that process is alive, is a {@code postgres} executable unpacked by a scheduler
 * under this data directory, and serves this data directory; since the caller holds the
 * {@link DataDirectoryLock}, no live scheduler uses it, and it is stopped. Anything else alive at that
 * pid that is a PostgreSQL server is refused: some other installation uses the files.
 *
 * @param pid      the postmaster's process id
 * @param dataDir  the data directory it serves, from its pid file
 * @param port     the port it listens on, from its pid file
 * @param command  its executable, as the operating system reports it
 */
record LeftoverPostmaster(long pid, Path dataDir, String port, Optional<String> command) {

    static final String PID_FILE = "postmaster.pid";

    /**
     * Finds the server named by {@code pgdata/postmaster.pid}, if that process is alive.
     *
     * <p>A pid file whose process is gone is left to PostgreSQL, which removes it itself; one whose pid
     * now belongs to a process that is not PostgreSQL (a pid reused after a reboot or in a container)
     * is removed here, since PostgreSQL would refuse to start on it.
     */
    static Optional<LeftoverPostmaster> find(Path pgdata) throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(pgdata.resolve(PID_FILE), StandardCharsets.UTF_8);
        } catch (NoSuchFileException cleanlyStopped) {
            return Optional.empty();
        }
        if (lines.size() < 4 || !lines.get(0).strip().matches("\\d+")) {
            return Optional.empty();
        }
        long pid = Long.parseLong(lines.get(0).strip());
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty() || pid == ProcessHandle.current().pid()) {
            return Optional.empty();
        }
        Optional<String> command = process.get().info().command();
        LeftoverPostmaster found = new LeftoverPostmaster(pid, Path.of(lines.get(1).strip()), lines.get(3).strip(), command);
        if (command.isPresent() && !found.isPostgres()) {
            Files.deleteIfExists(pgdata.resolve(PID_FILE));
            return Optional.empty();
        }
        return Optional.of(found);
    }

    /** Started from binaries unpacked under {@code binariesRoot}, and serving {@code pgdata}. */
    boolean isOurs(Path binariesRoot, Path pgdata) throws IOException {
        return isPostgres() && Path.of(command.orElseThrow()).toRealPath().startsWith(binariesRoot.toRealPath())
                && Files.exists(dataDir) && Files.isSameFile(dataDir, pgdata);
    }

    /** Stops it with a fast shutdown and waits until the process has exited. */
    void stop(PostgresBinaries binaries, Path pgdata) {
        try {
            binaries.stop(pgdata);
            ProcessHandle.of(pid).ifPresent(LeftoverPostmaster::awaitExit);
        } catch (IllegalStateException e) {
            throw new EmbeddedDatabaseStartupException("PostgreSQL (pid " + pid + ") left running on " + pgdata
                    + " by an earlier scheduler did not stop with a fast shutdown (" + e.getMessage() + ").",
                    "Stop process " + pid + " (kill -INT " + pid + "), then start the scheduler again.", e);
        }
    }

    EmbeddedDatabaseStartupException refusal(Path pgdata) {
        return new EmbeddedDatabaseStartupException("The PostgreSQL data directory " + pgdata + " is in use by process "
                + pid + " (" + command.orElse("command unknown") + ", port " + port + "), which no scheduler on this"
                + " data directory started.",
                "Stop that PostgreSQL server, or give this scheduler a data directory of its own with"
                        + " platform.embedded-db.data-dir.");
    }

    private boolean isPostgres() {
        return command.map(c -> Path.of(c).getFileName().toString().matches("postgres(\\.exe)?")).orElse(false);
    }

    private static void awaitExit(ProcessHandle process) {
        try {
            process.onExit().get(30, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            throw new IllegalStateException("still running", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
