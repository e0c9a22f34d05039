package dev.platform.scheduler.database;

import dev.platform.scheduler.SchedulerApplication;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import javax.sql.DataSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With no {@code spring.datasource.url} the application runs on its own embedded PostgreSQL,
 * durable by default, as a role that is not a superuser, and keeps its state across a restart.
 */
class EmbeddedDatabaseRestartTest {

    @TempDir
    Path dataDir;

    @Test
    void stateSurvivesARestartOnTheEmbeddedDatabase() {
        try (ConfigurableApplicationContext first = start()) {
            PlatformClient api = client(first);
            assertThat(api.get("/actuator/health").json().get("status").asString()).isEqualTo("UP");
            assertThat(api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml")).status())
                    .isEqualTo(200);
            assertThat(crashSafety(first)).as("the library's test defaults turn fsync and synchronous_commit off")
                    .containsEntry("fsync", "on").containsEntry("synchronous_commit", "on")
                    .containsEntry("full_page_writes", "on");
            aYoungTableIsAnalyzedWithinSeconds(JdbcClient.create(first.getBean(DataSource.class)));
            assertThat(JdbcClient.create(first.getBean(DataSource.class)).sql(
                    "SELECT rolname || ' superuser=' || rolsuper FROM pg_roles WHERE rolname = current_user")
                    .query(String.class).single()).as("the role the application and its migrations run as")
                    .isEqualTo("platform superuser=false");
        }
        assertThat(Files.exists(dataDir.resolve("pgdata").resolve("PG_VERSION"))).isTrue();

        try (ConfigurableApplicationContext second = start()) {
            PlatformClient api = client(second);
            assertThat(api.get("/actuator/health").json().get("status").asString()).isEqualTo("UP");
            assertThat(api.get("/api/v1/clusterqueues/tpu-training-cq").json()
                    .at("/spec/resourceGroups/0/flavors/0/resources/0/nominalQuota").asString()).isEqualTo("32");
            assertThat(api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml")).json()
                    .get("results").valueStream().map(r -> r.get("action").asString())).containsOnly("unchanged");
        }
    }

    @Test
    void aThrowAwayDatabaseMayOptOutOfDurability() {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(SchedulerApplication.class)
                .run("--server.port=0", "--platform.tls.port=0", "--platform.embedded-db.data-dir=" + dataDir,
                        "--platform.embedded-db.durable=false", "--platform.scheduler.enabled=false")) {
            assertThat(crashSafety(context)).containsEntry("fsync", "off").containsEntry("synchronous_commit", "off")
                    .containsEntry("full_page_writes", "off");
        }
    }

    /**
     * A plan made while a table was nearly empty is kept until the table is analyzed: autovacuum looks every few
     * seconds (PostgreSQL's default is a minute), so a table that grows is analyzed soon.
     */
    private static void aYoungTableIsAnalyzedWithinSeconds(JdbcClient jdbc) {
        jdbc.sql("CREATE TABLE young (n integer)").update();
        jdbc.sql("INSERT INTO young SELECT generate_series(1, 1000)").update();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> jdbc.sql(
                "SELECT last_autoanalyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'young'")
                .query(Boolean.class).optional().orElse(false));
        jdbc.sql("DROP TABLE young").update();
    }

    private static Map<String, String> crashSafety(ConfigurableApplicationContext context) {
        JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
        return Map.of("fsync", jdbc.sql("SHOW fsync").query(String.class).single(),
                "synchronous_commit", jdbc.sql("SHOW synchronous_commit").query(String.class).single(),
                "full_page_writes", jdbc.sql("SHOW full_page_writes").query(String.class).single());
    }

    private ConfigurableApplicationContext start() {
        // arguments, not default properties: application.properties' server.port=8080 would outrank those
        return new SpringApplicationBuilder(SchedulerApplication.class)
                .run(Stream.concat(Stream.of("--server.port=0", "--platform.tls.port=0", "--platform.embedded-db.data-dir=" + dataDir),
                        TestIdentity.settings().stream().map(s -> "--" + s)).toArray(String[]::new));
    }

    private static PlatformClient client(ConfigurableApplicationContext context) {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        return new PlatformClient(port);
    }
}
