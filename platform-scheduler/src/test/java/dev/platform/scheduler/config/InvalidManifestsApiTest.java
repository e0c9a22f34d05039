package dev.platform.scheduler.config;

import dev.platform.api.manifest.decode.InvalidManifestCorpus;
import dev.platform.api.manifest.decode.InvalidManifestCorpus.Expectation;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every manifest of the invalid corpus, posted over HTTP to a database that already holds the
 * seed's configuration: a 4xx problem+json naming document and path, and not one row changed.
 */
class InvalidManifestsApiTest extends PlatformApplicationTest {

    @BeforeEach
    void seedConfiguration() {
        assertThat(api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml")).status()).isEqualTo(200);
    }

    @TestFactory
    Stream<DynamicTest> everyBadManifestIsA4xxProblemAndChangesNothing() {
        return InvalidManifestCorpus.expectations().stream()
                .map(e -> DynamicTest.dynamicTest(e.file(), () -> postAndCheck(e)));
    }

    private void postAndCheck(Expectation e) throws Exception {
        Map<String, String> before = DatabaseCleaner.contentDigest(jdbc);

        Response response = api.post("/api/v1/manifests", e.contentType(), InvalidManifestCorpus.body(e));

        assertThat(response.status()).as("%s: %s", e.file(), response.body()).isEqualTo(e.status());
        assertThat(response.contentType()).as(e.file()).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("status").asInt()).isEqualTo(e.status());
        assertThat(problem.has("title")).isTrue();
        assertThat(problem.get("errors").valueStream()).as("%s errors: %s", e.file(), problem.get("errors"))
                .anySatisfy(error -> {
                    assertThat(error.get("document").asInt()).isEqualTo(e.document());
                    assertThat(error.get("path").asString()).isEqualTo(e.path());
                    assertThat(error.get("message").asString()).contains(e.messageContains());
                });
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(DatabaseCleaner.contentDigest(jdbc)).as("database after %s", e.file()).isEqualTo(before);
    }
}
