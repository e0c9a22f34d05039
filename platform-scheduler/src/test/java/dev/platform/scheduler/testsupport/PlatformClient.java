package dev.platform.scheduler.testsupport;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * A plain HTTP client for the REST contract, as an outside caller would use it: every request carries
 * {@code Authorization: Bearer <token>}, the test Admin's token unless {@link #as} names another
 * caller (or none).
 */
public final class PlatformClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String token;

    public PlatformClient(int port) {
        this("http://127.0.0.1:" + port);
    }

    public PlatformClient(String baseUrl) {
        this(baseUrl, TestIdentity.ADMIN_TOKEN);
    }

    private PlatformClient(String baseUrl, String token) {
        this.baseUrl = baseUrl;
        this.token = token;
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** The bearer token this client sends, null for an anonymous one. */
    public String token() {
        return token;
    }

    /** The same platform as another caller: {@code token} is their bearer token, null for an anonymous caller. */
    public PlatformClient as(String token) {
        return new PlatformClient(baseUrl, token);
    }

    public PlatformClient anonymous() {
        return as(null);
    }

    /** A response with its body parsed as JSON when it is JSON. */
    public record Response(int status, String contentType, String body, HttpHeaders headers) {

        public Response(int status, String contentType, String body) {
            this(status, contentType, body, HttpHeaders.of(Map.of(), (a, b) -> true));
        }

        public JsonNode json() {
            return JSON.readTree(body);
        }

        public String header(String name) {
            return headers.firstValue(name).orElse(null);
        }
    }

    public Response get(String path) {
        return send(request(path).GET().header("Accept", "application/json"));
    }

    /** A GET with the given {@code Accept}, for text formats (Prometheus, CSV, HTML). */
    public Response get(String path, String accept) {
        return send(request(path).GET().header("Accept", accept));
    }

    public Response delete(String path) {
        return send(request(path).DELETE());
    }

    public Response post(String path, String contentType, String body) {
        return post(path, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    public Response post(String path, String contentType, byte[] body) {
        HttpRequest.Builder request = request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    /**
     * A request as a hostile client may send it: any method, any extra headers (an {@code Authorization}
     * among them replaces this client's), the path as given.
     */
    public Response send(String method, String path, Map<String, String> headers, String contentType, String body) {
        HttpRequest.Builder request = request(path).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        headers.forEach(request::setHeader);
        return send(request);
    }

    public Response postYaml(String path, String yaml) {
        return post(path, "application/yaml", yaml);
    }

    public Response postJson(String path, String json) {
        return post(path, "application/json", json);
    }

    /** A request to {@code path} with this client's credentials, for headers the methods above do not set. */
    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    public Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
                    response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
