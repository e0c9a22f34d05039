package dev.platform.scheduler.web;

import org.springframework.http.HttpStatus;
import tools.jackson.databind.json.JsonMapper;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The API's problem JSON for errors raised outside its controllers: a request Tomcat refuses before
 * any application code (an encoded {@code /} in the path), a route that does not exist, an error
 * a servlet filter sends (authentication, a firewall). Same shape as {@link ApiProblems}' answers.
 * A message the container attached is kept for a 4xx only, cleaned of control characters and cut
 * short; a 5xx says only that the error is logged.
 */
final class ContainerProblems {

    static final String CONTENT_TYPE = "application/problem+json";
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int MAX_DETAIL = 200;

    private ContainerProblems() {
    }

    /**
     * Whether the request was for the REST API (or Kueue's visibility API under {@code /apis/}), whose clients read
     * JSON whatever their {@code Accept} says.
     */
    static boolean isApi(String requestUri) {
        return requestUri != null && (requestUri.equals("/api") || requestUri.startsWith("/api/")
                || requestUri.startsWith("/apis/"));
    }

    static Map<String, Object> body(int status, String containerMessage, String requestUri) {
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error " + status : known.getReasonPhrase();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "about:blank");
        body.put("title", title);
        body.put("status", status);
        body.put("detail", detail(status, title, containerMessage, requestUri));
        body.put("errors", List.of());
        return body;
    }

    static String json(int status, String containerMessage, String requestUri) {
        return JSON.writeValueAsString(body(status, containerMessage, requestUri));
    }

    private static String detail(int status, String title, String message, String requestUri) {
        if (status == 503) {
            return "The database is unavailable; nothing was changed. Retry after "
                    + DatabaseUnavailable.RETRY_AFTER_SECONDS + " seconds.";
        }
        if (status >= 500) {
            return "The platform failed to handle the request; the error is logged.";
        }
        if (status == 404) {
            return "no API endpoint at " + clean(requestUri);
        }
        if (status == 400 && (message == null || message.isBlank())) {
            return "the request was refused before reaching the API: its path or headers are malformed (an encoded"
                    + " '/' or '\\', a control character, an invalid escape)";
        }
        return message == null || message.isBlank() ? title : clean(message);
    }

    private static String clean(String text) {
        String printable = text == null ? "" : text.replaceAll("\\p{Cntrl}", "?");
        return printable.length() <= MAX_DETAIL ? printable : printable.substring(0, MAX_DETAIL) + "...";
    }
}
