package dev.platform.scheduler.performance;

import dev.platform.scheduler.database.EmbeddedPostgresConfiguration;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.util.FileSystemUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The PostgreSQL server of a full benchmark run: the scheduler's own embedded server (same binaries), durable as
 * the application starts it by default (fsync, synchronous_commit and full_page_writes on), with its data on the
 * build's disk. The benchmarks' schedulers and pgbench all run against it.
 */
final class BenchmarkPostgres implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    /** Starts on an empty {@code dataDirectory}: a run that was killed leaves its data behind, and initdb refuses it. */
    BenchmarkPostgres(Path dataDirectory) {
        try {
            FileSystemUtils.deleteRecursively(dataDirectory);
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(true)
                    .setPGStartupWait(Duration.ofSeconds(120));
            EmbeddedPostgresConfiguration.serverSettings(true).forEach(builder::setServerConfig);
            if (StatementStatistics.ON) {
                builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
            }
            postgres = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the benchmarks' PostgreSQL", e);
        }
    }

    /** A new, empty database for one benchmark. */
    String createDatabase(String name) {
        admin().sql("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)").update();
        admin().sql("CREATE DATABASE " + name).update();
        return postgres.getJdbcUrl("postgres", name);
    }

    SchedulerHost.PostgresServer server() {
        String version = admin().sql("SHOW server_version").query(String.class).single();
        return new SchedulerHost.PostgresServer("localhost", postgres.getPort(), "postgres", "postgres",
                "PostgreSQL " + version + " (embedded, fsync, synchronous_commit and full_page_writes on)");
    }

    /** A connection per statement: the few administrative statements of a run need no pool. */
    private JdbcClient admin() {
        return JdbcClient.create(new DriverManagerDataSource(postgres.getJdbcUrl("postgres", "postgres"), "postgres",
                "postgres"));
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
