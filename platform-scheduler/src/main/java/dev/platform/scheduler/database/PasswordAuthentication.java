package dev.platform.scheduler.database;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import static dev.platform.scheduler.database.DatabasePasswords.APPLICATION_ROLE;
import static dev.platform.scheduler.database.DatabasePasswords.SUPERUSER;

/**
 * Who may log in to the embedded server: every connection, over TCP on loopback or the Unix socket, presents a
 * password (scram-sha-256; {@code pg_hba.conf} has no {@code trust} line), and the application logs in as
 * {@value DatabasePasswords#APPLICATION_ROLE}, which is not a superuser. A data directory from a version that
 * trusted every local connection, whose tables the superuser owns, is brought to the same state in place.
 */
final class PasswordAuthentication {

    private static final Logger log = LoggerFactory.getLogger(PasswordAuthentication.class);
    private static final String HBA_FILE = "pg_hba.conf";
    private static final String HBA = """
            # Written by the platform scheduler at every start: every connection logs in with a password.
            # The passwords are in the data directory, readable by the scheduler's operating-system user alone.
            local   all   all                  scram-sha-256
            host    all   all   127.0.0.1/32   scram-sha-256
            host    all   all   ::1/128        scram-sha-256
            """;

    private PasswordAuthentication() {
    }

    /**
     * With the server stopped: the superuser gets its password when the cluster may not have it (a data directory
     * from a trusting version, or a password file that had to be made anew), then {@code pg_hba.conf} is written.
     * In single-user mode no one can connect meanwhile; a start interrupted half-way does it all again.
     */
    static void requirePasswords(PostgresBinaries binaries, Path pgdata, DatabasePasswords passwords)
            throws IOException {
        Path hba = pgdata.resolve(HBA_FILE);
        String current = Files.readString(hba, StandardCharsets.UTF_8);
        if (current.equals(HBA) && !passwords.superuserNew()) {
            return;
        }
        binaries.singleUser(pgdata, "ALTER ROLE " + SUPERUSER + " WITH PASSWORD '" + passwords.superuser() + "'");
        Path partial = hba.resolveSibling(HBA_FILE + ".partial");
        Files.writeString(partial, HBA, StandardCharsets.UTF_8);
        Files.move(partial, hba, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        if (current.lines().anyMatch(line -> line.strip().endsWith("trust"))) {
            log.info("The embedded PostgreSQL on {} let every local connection in without a password; it now requires"
                    + " the passwords kept in {}", pgdata, passwords.superuserFile().getParent());
        }
    }

    /**
     * With the server up: the application's role exists with its password, is no superuser, and owns the schema
     * {@code public} and everything in it (what an earlier version created as the superuser too), so the
     * migrations run as it. Done on every start in one transaction; it changes nothing once done.
     */
    static void grantApplicationRole(String jdbcUrl, DatabasePasswords passwords) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, SUPERUSER, passwords.superuser());
             Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("""
                    DO $$ BEGIN
                      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '%1$s') THEN CREATE ROLE %1$s; END IF;
                    END $$""".formatted(APPLICATION_ROLE));
            statement.execute(("ALTER ROLE %s WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
                    + " PASSWORD '%s'").formatted(APPLICATION_ROLE, passwords.application()));
            statement.execute("ALTER SCHEMA public OWNER TO " + APPLICATION_ROLE);
            statement.execute("""
                    DO $$
                    DECLARE
                      change record;
                    BEGIN
                      FOR change IN
                        SELECT format('ALTER %%s %%s OWNER TO %1$s', CASE c.relkind WHEN 'v' THEN 'VIEW'
                                 WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
                                 c.oid::regclass) AS statement
                        FROM pg_class c
                        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                          AND c.relowner <> '%1$s'::regrole
                        UNION ALL
                        SELECT format('ALTER ROUTINE %%s OWNER TO %1$s', p.oid::regprocedure) FROM pg_proc p
                        WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> '%1$s'::regrole
                        UNION ALL
                        SELECT format('ALTER TYPE %%s OWNER TO %1$s', t.oid::regtype) FROM pg_type t
                        WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd')
                          AND t.typowner <> '%1$s'::regrole
                      LOOP
                        EXECUTE change.statement;
                      END LOOP;
                      -- sequences last: one that belongs to a column has changed owner with its table
                      FOR change IN
                        SELECT format('ALTER SEQUENCE %%s OWNER TO %1$s', c.oid::regclass) AS statement FROM pg_class c
                        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S'
                          AND c.relowner <> '%1$s'::regrole
                      LOOP
                        EXECUTE change.statement;
                      END LOOP;
                    END $$""".formatted(APPLICATION_ROLE));
            connection.commit();
        } catch (SQLException e) {
            if ("28P01".equals(e.getSQLState())) {
                throw new EmbeddedDatabaseStartupException("The embedded PostgreSQL refused the superuser password in "
                        + passwords.superuserFile() + ": the file does not belong to this data directory.",
                        "Restore the file from the backup the data directory came from, or delete it: the next start"
                                + " then gives the superuser a new password.", e);
            }
            throw new IllegalStateException("cannot set up the application's role " + APPLICATION_ROLE + ": "
                    + e.getMessage(), e);
        }
    }
}
