package dev.platform.scheduler.database;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A brand-new database migrated as the scheduler migrates it (its Flyway settings from application.properties):
 * no warning, although a migration's {@code ADD COLUMN IF NOT EXISTS} makes PostgreSQL send a NOTICE that Flyway
 * logged as one.
 */
class FreshDatabaseMigrationTest {

    @Test
    void aBrandNewDatabaseIsMigratedWithoutAWarning() throws IOException {
        Properties settings = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            settings.load(in);
        }
        TestDatabase.Connection fresh = TestDatabase.createDatabase("fresh_migration").database("fresh_migration");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger flywayLogs = (Logger) LoggerFactory.getLogger("org.flywaydb");
        flywayLogs.addAppender(logged);
        try {
            Flyway.configure().dataSource(fresh.url(), fresh.username(), fresh.password())
                    .locations(settings.getProperty("spring.flyway.locations"))
                    .initSql(settings.getProperty("spring.flyway.init-sqls"))
                    .load().migrate();
        } finally {
            flywayLogs.detachAppender(logged);
            TestDatabase.createDatabase("fresh_migration");
        }

        assertThat(logged.list).as("Flyway's log of a fresh migration")
                .noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.WARN));
    }
}
