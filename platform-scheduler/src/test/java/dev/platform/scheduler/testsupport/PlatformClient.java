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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

    /** A response with its body parsed as JSON when it is JSON; header names in lower case. */
    public record Response(int status, String contentType, String body, Map<String, List<String>> headers) {

        public Response(int status, String contentType, String body) {
            this(status, contentType, body, Map.of());
        }

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public Optional<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of()).stream().findFirst();
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

    /** A request as a hostile client may send it: any method, any extra headers, the path as given. */
    public Response send(String method, String path, Map<String, String> headers, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::header);
        return send(request);
    }

    public Response postYaml(String path, String yaml) {
        return post(path, "application/yaml", yaml);
    }

    private Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Map<String, List<String>> headers = new TreeMap<>();
            response.headers().map().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values));
            return new Response(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""), response.body(), headers);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
