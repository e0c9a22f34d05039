package dev.platform.scheduler.web;

import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

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

    /** A line Tomcat cannot read to its end has no path to tell; its clients are programs, answered in JSON. */
    @Test
    void aRequestLineLongerThanTomcatReadsIsAProblemThatSaysSo() {
        Response response = api.get("/api/v1/namespaces/team-a/workloads?state=" + "x".repeat(10_000));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).as(response.body()).startsWith("application/problem+json");
        assertThat(response.json().get("detail").asString()).contains("too large");
    }

    /** Tomcat refuses these before it knows a path: its page must not show the exception or its own version. */
    @ParameterizedTest
    @ValueSource(strings = {"GET /api/v1/clusterqueues|x HTTP/1.1", "GET /queues{} HTTP/1.1", "G\u0001T / HTTP/1.1",
            "GET /api/v1/clusterqueues HTTP/9.z"})
    void aMalformedRequestLineShowsNoStackTraceAndNoServerVersion(String requestLine) throws IOException {
        String answer = rawExchange(requestLine);

        assertThat(answer).as(requestLine).startsWith("HTTP/1.1 400");
        assertThat(answer).as(requestLine).doesNotContain("Exception").doesNotContain("\tat ")
                .doesNotContainIgnoringCase("tomcat").doesNotContain("org.apache");
    }

    private String rawExchange(String requestLine) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write((requestLine + "\r\nHost: localhost\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
