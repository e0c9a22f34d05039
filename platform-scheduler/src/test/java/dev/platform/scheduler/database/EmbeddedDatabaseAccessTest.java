package dev.platform.scheduler.database;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.FileSystemUtils;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The embedded server lets in only those who hold a password from its data directory: not a local user who
 * can reach its port, not the superuser without the password; the application is no superuser. A data directory
 * from the version that trusted every local connection is brought to that state in place, its data kept.
 */
@DisabledOnOs(OS.WINDOWS)
class EmbeddedDatabaseAccessTest {

    private static final Map<String, String> SETTINGS = Map.of("fsync", "off", "timezone", "UTC");

    @TempDir
    Path dataDir;

    @Test
    void onlyTheHoldersOfAPasswordFromTheDataDirectoryLogIn() throws Exception {
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, 0, SETTINGS)) {
            String url = server.jdbcUrl("postgres");

            assertThat(refusal(url, "postgres", "")).contains("password");
            assertThat(refusal(url, "postgres", "postgres")).contains("password authentication failed");
            assertThat(refusal(url, "platform", "")).contains("password");
            JdbcClient application = jdbc(url, server.application());
            assertThat(application.sql("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                    .query(Boolean.class).single()).as("the application's role is a superuser").isFalse();
            assertThat(application.sql("SELECT current_user").query(String.class).single()).isEqualTo("platform");
            assertThat(jdbc(url, server.superuser()).sql("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
                    .query(Boolean.class).single()).isTrue();

            assertThat(Files.readString(dataDir.resolve("pgdata/pg_hba.conf"))).doesNotContainPattern("(?m)trust$")
                    .contains("scram-sha-256");
            assertThat(permissions(dataDir)).isEqualTo("rwx------");
            assertThat(permissions(dataDir.resolve(DatabasePasswords.SUPERUSER_FILE))).isEqualTo("rw-------");
            assertThat(permissions(dataDir.resolve(DatabasePasswords.APPLICATION_FILE))).isEqualTo("rw-------");
            assertThat(Files.readString(dataDir.resolve(DatabasePasswords.APPLICATION_FILE)).strip())
                    .isEqualTo(server.application().password()).hasSizeGreaterThanOrEqualTo(40);
        }
    }

    /**
     * The finding itself: as {@code nobody}, the JDBC driver reached the port and logged in as the superuser. Now
     * it is refused without the password and logs in with it, which shows the process could reach the server.
     */
    @Test
    void anotherOperatingSystemUserIsRefusedWithoutThePassword() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "needs root and setpriv to run a probe as the user nobody");
        Path probe = probeDirectory();
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, 0, SETTINGS)) {
            String url = server.jdbcUrl("postgres");

            ProbeResult withoutPassword = probeAsNobody(probe, url, "postgres", "");
            assertThat(withoutPassword.output()).contains("refused").contains("password");
            assertThat(withoutPassword.exitCode()).isEqualTo(3);
            ProbeResult asTheApplicationWithoutPassword = probeAsNobody(probe, url, "platform", "");
            assertThat(asTheApplicationWithoutPassword.output()).contains("refused");
            ProbeResult readingTheFile = probeAsNobody(probe, url, "postgres", "@" + dataDir.resolve(
                    DatabasePasswords.SUPERUSER_FILE));
            assertThat(readingTheFile.output()).as("the password file is the owner's alone").contains("cannot read");

            ProbeResult withPassword = probeAsNobody(probe, url, "platform", server.application().password());
            assertThat(withPassword.output()).contains("connected as platform");
        } finally {
            FileSystemUtils.deleteRecursively(probe);
        }
    }

    @Test
    void aDataDirectoryThatTrustedEveryLocalConnectionIsUpgradedInPlace() throws Exception {
        Path pgdata = dataDir.resolve("pgdata");
        PostgresBinaries binaries = PostgresBinaries.unpack(dataDir.resolve("binaries"));
        PostgresBinaries.run(List.of(binaries.executable("initdb"), "-A", "trust", "-U", "postgres", "-D",
                pgdata.toString(), "-E", "UTF-8"), "");
        int port = freePort();
        binaries.start(pgdata, port, SETTINGS, dataDir.resolve("postgresql.log"));
        try {
            JdbcClient old = JdbcClient.create(new DriverManagerDataSource("jdbc:postgresql://localhost:" + port
                    + "/postgres", "postgres", ""));
            old.sql("CREATE TABLE workload (id bigserial PRIMARY KEY, name text NOT NULL)").update();
            old.sql("CREATE SEQUENCE command_seq").update();
            old.sql("CREATE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$").update();
            old.sql("CREATE VIEW workload_names AS SELECT name FROM workload").update();
            old.sql("INSERT INTO workload (name) VALUES ('kept-1'), ('kept-2')").update();
        } finally {
            binaries.stop(pgdata);
        }

        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, 0, SETTINGS)) {
            String url = server.jdbcUrl("postgres");
            assertThat(refusal(url, "postgres", "")).contains("password");
            JdbcClient application = jdbc(url, server.application());
            assertThat(application.sql("SELECT name FROM workload_names ORDER BY name").query(String.class).list())
                    .containsExactly("kept-1", "kept-2");
            application.sql("INSERT INTO workload (name) VALUES ('new')").update();
            application.sql("SELECT nextval('command_seq')").query(Long.class).single();
            application.sql("ALTER TABLE workload ADD COLUMN state text").update();
            application.sql("CREATE OR REPLACE FUNCTION touch() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN RETURN OLD; END $$").update();
            assertThat(application.sql("""
                    SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
                      AND c.relowner <> 'platform'::regrole""").query(String.class).list())
                    .as("objects in public the application does not own").isEmpty();
        }
        try (EmbeddedPostgresServer again = EmbeddedPostgresServer.start(dataDir, 0, SETTINGS)) {
            assertThat(jdbc(again.jdbcUrl("postgres"), again.application()).sql("SELECT count(*) FROM workload")
                    .query(Long.class).single()).isEqualTo(3);
        }
    }

    @Test
    void aLostSuperuserPasswordFileIsMadeAnewAtTheNextStart() throws Exception {
        try (EmbeddedPostgresServer first = EmbeddedPostgresServer.start(dataDir, 0, SETTINGS)) {
            jdbc(first.jdbcUrl("postgres"), first.application()).sql("CREATE TABLE kept (n int)").update();
        }
        Files.delete(dataDir.resolve(DatabasePasswords.SUPERUSER_FILE));

        try (EmbeddedPostgresServer second = EmbeddedPostgresServer.start(dataDir, 0, SETTINGS)) {
            assertThat(jdbc(second.jdbcUrl("postgres"), second.superuser()).sql("SELECT count(*) FROM kept")
                    .query(Long.class).single()).isZero();
        }
    }

    private static String refusal(String url, String user, String password) {
        return assertThatThrownBy(() -> DriverManager.getConnection(url, user, password).close())
                .isInstanceOf(SQLException.class).actual().getMessage();
    }

    private static JdbcClient jdbc(String url, EmbeddedPostgresServer.Login login) {
        return JdbcClient.create(new DriverManagerDataSource(url, login.user(), login.password()));
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    /** A directory anyone may read, holding the PostgreSQL driver and a one-file program that logs in with it. */
    private static Path probeDirectory() throws Exception {
        Path directory = Files.createTempDirectory("db-probe");
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path driver = Path.of(org.postgresql.Driver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(driver, directory.resolve("postgresql.jar"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(directory.resolve("Probe.java"), """
                import java.nio.file.*;
                import java.sql.*;
                public class Probe {
                    public static void main(String[] args) throws Exception {
                        String password = System.getenv("PROBE_PASSWORD");
                        if (password.startsWith("@")) {
                            try {
                                password = Files.readString(Path.of(password.substring(1))).strip();
                            } catch (Exception e) {
                                System.out.println("cannot read " + password.substring(1) + ": " + e);
                                System.exit(4);
                            }
                        }
                        try (Connection c = DriverManager.getConnection(args[0], args[1], password)) {
                            System.out.println("connected as " + c.getMetaData().getUserName());
                        } catch (SQLException e) {
                            System.out.println("refused: " + e.getMessage());
                            System.exit(3);
                        }
                    }
                }
                """);
        for (String file : List.of("postgresql.jar", "Probe.java")) {
            Files.setPosixFilePermissions(directory.resolve(file), PosixFilePermissions.fromString("rw-r--r--"));
        }
        return directory;
    }

    private record ProbeResult(int exitCode, String output) {
    }

    private static ProbeResult probeAsNobody(Path probe, String url, String user, String password) throws Exception {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                "--clear-groups", java, "-cp", probe.resolve("postgresql.jar").toString(),
                probe.resolve("Probe.java").toString(), url, user));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).directory(probe.toFile());
        builder.environment().put("HOME", probe.toString());
        builder.environment().put("PROBE_PASSWORD", password);
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ProbeResult(process.exitValue(), output);
    }

    private static int freePort() throws IOException {
        try (var socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
