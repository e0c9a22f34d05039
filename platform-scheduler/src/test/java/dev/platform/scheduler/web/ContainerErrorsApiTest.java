package dev.platform.scheduler.web;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests refused before any controller runs, by Tomcat itself or on the way to a handler, still
 * answer with the API's problem JSON under {@code /api/}: never Tomcat's HTML page, never a stack trace.
 */
class ContainerErrorsApiTest extends PlatformApplicationTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "/api/v1/namespaces/team%2Fa/workloads",
            "/api/v1/clusterqueues/a%2F..%2F..%2Fetc",
            "/api/v1/namespaces/team%5Ca/workloads",
            "/api/v1/clusterqueues/%00",
            "/api/v1/namespaces/a/workloads/%2e%2e%2f%2e%2e%2fadmin",
            "/api/v1/no-such-endpoint"})
    void aRefusedPathIsAProblem(String path) {
        Response response = api.get(path);

        assertThat(response.status()).as(path).isBetween(400, 499);
        assertThat(response.contentType()).as("%s: %s", path, response.body()).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("status").asInt()).isEqualTo(response.status());
        assertThat(problem.get("title").asString()).isNotBlank();
        assertThat(problem.get("errors").isArray()).isTrue();
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("<html");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/namespaces/team%2Fa/workloads", "/api/v1/no-such-endpoint"})
    void evenWhenTheClientAsksForHtml(String path) {
        Response response = api.get(path, "text/html");

        assertThat(response.contentType()).as("%s: %s", path, response.body()).startsWith("application/problem+json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/team%2Fa", "/no-such-page"})
    void theConsoleKeepsItsHtmlErrors(String path) {
        assertThat(api.get(path, "text/html").contentType()).startsWith("text/html");
    }
}
