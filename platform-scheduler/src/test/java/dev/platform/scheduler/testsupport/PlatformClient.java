package dev.platform.scheduler.testsupport;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A plain HTTP client for the REST contract, as an outside caller would use it. */
public final class PlatformClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public PlatformClient(int port) {
        this("http://127.0.0.1:" + port);
    }

    public PlatformClient(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** A response with its body parsed as JSON when it is JSON. */
    public record Response(int status, String contentType, String body) {
        public JsonNode json() {
            return JSON.readTree(body);
        }
    }

    public Response get(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().header("Accept", "application/json"));
    }

    /** A GET with the given {@code Accept}, for text formats (Prometheus, CSV, HTML). */
    public Response get(String path, String accept) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().header("Accept", accept));
    }

    public Response delete(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).DELETE());
    }

    public Response post(String path, String contentType, String body) {
        return post(path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    public Response post(String path, String contentType, byte[] body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    public Response postYaml(String path, String yaml) {
        return post(path, "application/yaml", yaml);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
