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

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With no {@code spring.datasource.url} the application runs on its own embedded PostgreSQL and
 * keeps its state across a restart.
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

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(SchedulerApplication.class)
                .properties("server.port=0", "platform.embedded-db.data-dir=" + dataDir)
                .properties(TestIdentity.settings().toArray(String[]::new))
                .run();
    }

    private static PlatformClient client(ConfigurableApplicationContext context) {
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        return new PlatformClient(port);
    }
}
