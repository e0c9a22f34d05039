package dev.platform.scheduler.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.test.util.TestPropertyValues;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One real PostgreSQL per test JVM: Testcontainers when a Docker engine answers, else the
 * embedded server (the same binaries the application uses by default). Never H2, never mocks.
 */
public final class TestDatabase {

    /** A test property naming a database of its own for a context (see {@link Initializer}). */
    public static final String DATABASE_PROPERTY = "platform.test.database";

    private static volatile Connection connection;

    private TestDatabase() {
    }

    /** JDBC coordinates of the shared test database. */
    public record Connection(String url, String username, String password) {

        private static final Pattern DATABASE_IN_URL = Pattern.compile("^(jdbc:postgresql://[^/]+/)([^?]*)(.*)$");

        /**
         * Another database on the same server, created on first use: for the one extra Spring
         * context whose settings differ (its scheduling loop must not compete with the shared
         * context's loop for leadership, nor see its rows).
         */
        public Connection database(String name) {
            if (!name.matches("[a-z][a-z0-9_]*")) {
                throw new IllegalArgumentException("not a plain database name: " + name);
            }
            Matcher m = DATABASE_IN_URL.matcher(url);
            if (!m.matches()) {
                throw new IllegalStateException("unexpected JDBC URL " + url);
            }
            try (java.sql.Connection c = DriverManager.getConnection(url, username, password);
                 Statement statement = c.createStatement()) {
                ResultSet exists = statement.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'");
                if (!exists.next()) {
                    statement.execute("CREATE DATABASE " + name);
                }
            } catch (SQLException e) {
                throw new IllegalStateException("could not create test database " + name, e);
            }
            return new Connection(m.group(1) + name + m.group(3), username, password);
        }
    }

    public static Connection connection() {
        Connection current = connection;
        if (current == null) {
            synchronized (TestDatabase.class) {
                if (connection == null) {
                    connection = start();
                }
                current = connection;
            }
        }
        return current;
    }

    private static Connection start() {
        if (dockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:17-alpine");
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            return new Connection(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        try {
            // A throw-away database opts out of durability explicitly, as the application's
            // platform.embedded-db.durable=false does: no fsync, commits not waited for on disk.
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .setServerConfig("full_page_writes", "off")
                    .start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    postgres.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }));
            return new Connection(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException("could not start embedded PostgreSQL for tests", e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A new, empty database on the shared server (dropped first if a previous run left it), for
     * tests that run whole application processes of their own: they must not compete with the
     * shared context's scheduler for leadership.
     */
    public static Connection createDatabase(String name) {
        Connection shared = connection();
        try (java.sql.Connection c = DriverManager.getConnection(shared.url(), shared.username(), shared.password());
             Statement statement = c.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop test database " + name, e);
        }
        return shared.database(name);
    }

    /**
     * Points a Spring test context at the shared database, or at its own database on the same
     * server when the context sets {@value #DATABASE_PROPERTY} (for example through
     * {@code @TestPropertySource}).
     */
    public static final class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            String own = context.getEnvironment().getProperty(DATABASE_PROPERTY);
            Connection db = own == null ? connection() : connection().database(own);
            TestPropertyValues.of(
                    "spring.datasource.url=" + db.url(),
                    "spring.datasource.username=" + db.username(),
                    "spring.datasource.password=" + db.password()
            ).applyTo(context.getEnvironment());
        }
    }
}
