package dev.platform.scheduler.database;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The embedded PostgreSQL server of one data directory, owned by this scheduler from start to stop.
 *
 * <p>Start: lock the data directory ({@link DataDirectoryLock}; a second scheduler is refused), unpack
 * the binaries, create the cluster on first start, stop a server that a killed scheduler left running
 * ({@link LeftoverPostmaster}), require a password of every connection ({@link PasswordAuthentication}, with the
 * passwords of {@link DatabasePasswords}), start the server and wait until it accepts connections, and give the
 * application its role, which is not a superuser. Stop, when the
 * application context closes: a fast shutdown, after every bean that uses the database has stopped (the
 * DataSource depends on this bean). No JVM shutdown hook of its own, so Ctrl-C stops the application
 * before its database.
 *
 * <p>A watchdog process ({@code /bin/sh}, not on Windows) reads a pipe from this JVM; when the JVM ends
 * in any way, SIGKILL included, the pipe closes and the watchdog asks the server for a fast shutdown,
 * so a killed scheduler does not leave a server holding the port, the memory and the data directory.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    /**
     * $1 the pid file, $2 the postmaster's pid. Signals from the terminal or a process-group kill are
     * ignored: the JVM stops the server itself then. SIGINT is PostgreSQL's fast shutdown; the pid file
     * check leaves alone a server that already stopped (its pid file is gone) or a later one.
     */
    private static final String WATCHDOG = "trap '' INT TERM HUP; read -r line;"
            + " [ \"$(head -n 1 \"$1\" 2>/dev/null)\" = \"$2\" ] && kill -INT \"$2\"";

    private final DataDirectoryLock lock;
    private final PostgresBinaries binaries;
    private final Path pgdata;
    private final int port;
    private final DatabasePasswords passwords;
    private final Optional<Process> watchdog;

    private EmbeddedPostgresServer(DataDirectoryLock lock, PostgresBinaries binaries, Path pgdata, int port,
                                   DatabasePasswords passwords, Optional<Process> watchdog) {
        this.lock = lock;
        this.binaries = binaries;
        this.pgdata = pgdata;
        this.port = port;
        this.passwords = passwords;
        this.watchdog = watchdog;
    }

    /** A role and its password. */
    public record Login(String user, String password) {
    }

    /**
     * @param port     TCP port on loopback; 0 picks a free one
     * @param settings server settings, each passed as {@code -c key=value}
     * @throws EmbeddedDatabaseStartupException when the data directory is in use by another scheduler or
     *                                          by a PostgreSQL server that no scheduler of it started
     */
    public static EmbeddedPostgresServer start(Path dataDirectory, int port, Map<String, String> settings)
            throws IOException {
        Path dataDir = dataDirectory.toAbsolutePath().normalize();
        Files.createDirectories(dataDir);
        DataDirectoryLock lock = DataDirectoryLock.acquire(dataDir);
        try {
            Path binariesRoot = dataDir.resolve("binaries");
            PostgresBinaries binaries = PostgresBinaries.unpack(binariesRoot);
            Path pgdata = dataDir.resolve("pgdata");
            DatabasePasswords passwords = DatabasePasswords.loadOrCreate(dataDir);
            if (Files.exists(pgdata.resolve("postgresql.conf"))) {
                stopLeftover(binaries, binariesRoot, pgdata);
            } else {
                binaries.initdb(pgdata, passwords.superuserFile());
            }
            PasswordAuthentication.requirePasswords(binaries, pgdata, passwords);
            int chosenPort = port == 0 ? freePort() : port;
            binaries.start(pgdata, chosenPort, settings, dataDir.resolve("postgresql.log"));
            Optional<Process> watchdog;
            try {
                watchdog = watch(pgdata);
                PasswordAuthentication.grantApplicationRole(jdbcUrl(chosenPort, "postgres"), passwords);
            } catch (RuntimeException | IOException e) {
                binaries.stop(pgdata);
                throw e;
            }
            log.info("Embedded PostgreSQL is up on port {} with data in {} (its log: {})", chosenPort, pgdata,
                    dataDir.resolve("postgresql.log"));
            return new EmbeddedPostgresServer(lock, binaries, pgdata, chosenPort, passwords, watchdog);
        } catch (RuntimeException | IOException e) {
            lock.close();
            throw e;
        }
    }

    private static void stopLeftover(PostgresBinaries binaries, Path binariesRoot, Path pgdata) throws IOException {
        Optional<LeftoverPostmaster> leftover = LeftoverPostmaster.find(pgdata);
        if (leftover.isEmpty()) {
            return;
        }
        LeftoverPostmaster postmaster = leftover.get();
        if (!postmaster.isOurs(binariesRoot, pgdata)) {
            throw postmaster.refusal(pgdata);
        }
        postmaster.stop(binaries, pgdata);
        log.info("Stopped the PostgreSQL server (pid {}, port {}) that an earlier scheduler left running on {}"
                + " when it was killed; starting it again", postmaster.pid(), postmaster.port(), pgdata);
    }

    private static Optional<Process> watch(Path pgdata) throws IOException {
        if (PostgresBinaries.isWindows()) {
            return Optional.empty();
        }
        Path pidFile = pgdata.resolve(LeftoverPostmaster.PID_FILE);
        String postmasterPid = Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).strip();
        return Optional.of(new ProcessBuilder("/bin/sh", "-c", WATCHDOG, "embedded-postgres-watchdog",
                pidFile.toString(), postmasterPid)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start());
    }

    public String jdbcUrl(String database) {
        return jdbcUrl(port, database);
    }

    private static String jdbcUrl(int port, String database) {
        return "jdbc:postgresql://localhost:" + port + "/" + database;
    }

    /** The role the application connects as: it owns the schema, and is no superuser. */
    public Login application() {
        return new Login(DatabasePasswords.APPLICATION_ROLE, passwords.application());
    }

    /** The superuser {@code postgres}: the scheduler's own set-up uses it, and an operator's maintenance may. */
    public Login superuser() {
        return new Login(DatabasePasswords.SUPERUSER, passwords.superuser());
    }

    public int port() {
        return port;
    }

    /** Fast shutdown, then the watchdog ends (it finds no pid file) and the data directory is unlocked. */
    @Override
    public void close() {
        try {
            binaries.stop(pgdata);
            log.info("Embedded PostgreSQL stopped");
        } catch (IllegalStateException e) {
            log.error("Embedded PostgreSQL did not stop cleanly: {}", e.getMessage());
        }
        try {
            watchdog.ifPresent(this::release);
            lock.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void release(Process watchdog) {
        try {
            watchdog.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
