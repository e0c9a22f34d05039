package dev.platform.scheduler.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What a browser does with the console, over HTTP: keeps cookies (the session), never follows a
 * redirect by itself (tests look at each), and posts forms with the CSRF token the page carried.
 */
public final class BrowserSession {

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();
    private final String baseUrl;

    public BrowserSession(int port) {
        this.baseUrl = "http://127.0.0.1:" + port;
    }

    public PlatformClient.Response get(String pathOrUrl) {
        return send(HttpRequest.newBuilder(uri(pathOrUrl)).header("Accept", "text/html").GET());
    }

    /** Posts a form as the page it was on would: with that page's CSRF token, unless {@code csrf} is null. */
    public PlatformClient.Response postForm(String path, Map<String, String> fields, String csrf) {
        Map<String, String> form = new java.util.LinkedHashMap<>(fields);
        if (csrf != null) {
            form.put("_csrf", csrf);
        }
        String body = form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(uri(path)).header("Accept", "text/html")
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** The CSRF token a page's forms carry. */
    public static String csrfOf(PlatformClient.Response page) {
        Matcher m = CSRF.matcher(page.body());
        if (!m.find()) {
            throw new AssertionError("no CSRF token in the page: " + page.body());
        }
        return m.group(1);
    }

    /** Logs in through the form, as a person would: the login page, then its form. */
    public PlatformClient.Response logIn(String user, String password) {
        String csrf = csrfOf(get("/login"));
        return postForm("/login", Map.of("username", user, "password", password), csrf);
    }

    private URI uri(String pathOrUrl) {
        return URI.create(pathOrUrl.startsWith("http") ? pathOrUrl : baseUrl + pathOrUrl);
    }

    private PlatformClient.Response send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new PlatformClient.Response(response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""), response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
