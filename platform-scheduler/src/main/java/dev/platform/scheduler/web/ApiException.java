package dev.platform.scheduler.web;

import org.springframework.http.HttpStatus;

import java.time.Duration;
import java.util.List;

/**
 * A request the API refuses for a reason the caller can act on; rendered as RFC 9457
 * problem+json by {@link ApiProblems}.
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String title;
    private final transient List<Object> errors;

    public ApiException(HttpStatus status, String title, String detail, List<?> errors) {
        super(detail);
        this.status = status;
        this.title = title;
        this.errors = List.copyOf(errors);
    }

    public static ApiException notFound(String kind, String name) {
        return new ApiException(HttpStatus.NOT_FOUND, "Not Found", kind + " \"" + name + "\" not found", List.of());
    }

    /** The caller's roles do not allow this; said the same whether or not the object exists. */
    public static ApiException forbidden(String detail) {
        return new ApiException(HttpStatus.FORBIDDEN, "Forbidden", detail, List.of());
    }

    public static ApiException conflict(String detail, List<?> references) {
        return new ApiException(HttpStatus.CONFLICT, "Conflict", detail, references);
    }

    /** How long the caller should wait before trying again, for a {@code Retry-After} header; null when not said. */
    public Duration retryAfter() {
        return null;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }

    public List<Object> errors() {
        return errors;
    }
}
