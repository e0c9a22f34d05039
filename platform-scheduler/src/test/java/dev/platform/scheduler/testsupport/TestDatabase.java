package dev.platform.scheduler.testsupport;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.test.util.TestPropertyValues;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One real PostgreSQL per test JVM: Testcontainers when a Docker engine answers, else the
 * embedded server (the same binaries the application uses by default). Never H2, never mocks.
 */
public final class TestDatabase {

    private static volatile Connection connection;

    private TestDatabase() {
    }

    /** JDBC coordinates of the shared test database. */
    public record Connection(String url, String username, String password) {
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
            EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
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
     * A new, empty database on the shared server, for tests that run whole application processes
     * of their own (they must not compete with the shared context's scheduler for leadership).
     */
    public static Connection createDatabase(String name) {
        Connection shared = connection();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(shared.url(), shared.username(),
                shared.password()); java.sql.Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("could not create test database " + name, e);
        }
        return new Connection(shared.url().replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1"), shared.username(),
                shared.password());
    }

    /** Points a Spring test context at the shared database. */
    public static final class Initializer implements ApplicationContextInitializer<ConfigurableApplicationContext> {
        @Override
        public void initialize(ConfigurableApplicationContext context) {
            Connection db = connection();
            TestPropertyValues.of(
                    "spring.datasource.url=" + db.url(),
                    "spring.datasource.username=" + db.username(),
                    "spring.datasource.password=" + db.password()
            ).applyTo(context.getEnvironment());
        }
    }
}
