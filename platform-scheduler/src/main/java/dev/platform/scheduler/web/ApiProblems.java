package dev.platform.scheduler.web;

import dev.platform.scheduler.refusal.Refusal;
import dev.platform.api.manifest.ManifestRejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Every error of the REST API as RFC 9457 {@code application/problem+json}, with an
 * {@code errors} array of {@code {document, path, message}} where the body was at fault.
 * Never a stack trace, never a 500 for bad input.
 */
@RestControllerAdvice(basePackages = "dev.platform.scheduler")
public class ApiProblems extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiProblems.class);

    @ExceptionHandler(ManifestRejectedException.class)
    ResponseEntity<ProblemDetail> manifestRejected(ManifestRejectedException e) {
        HttpStatus status = switch (e.rejection()) {
            case MALFORMED -> HttpStatus.BAD_REQUEST;
            case INVALID -> HttpStatus.UNPROCESSABLE_CONTENT;
            case TOO_LARGE -> HttpStatus.CONTENT_TOO_LARGE;
        };
        String detail = e.errors().size() == 1
                ? e.errors().get(0).message()
                : e.errors().size() + " problems found; nothing was applied";
        return problem(status, titleOf(e.rejection()), detail, e.errors());
    }

    @ExceptionHandler(Refusal.class)
    ResponseEntity<ProblemDetail> refused(Refusal e) {
        ResponseEntity<ProblemDetail> response = problem(status(e.kind()), e.title(), e.getMessage(), e.errors());
        if (e.retryAfter() != null) {
            return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders())
                    .header(HttpHeaders.RETRY_AFTER, Long.toString(e.retryAfter().toSeconds())).body(response.getBody());
        }
        return response;
    }

    /** The one place a refusal becomes an HTTP status. */
    public static HttpStatus status(Refusal.Kind kind) {
        return switch (kind) {
            case Malformed -> HttpStatus.BAD_REQUEST;
            case Invalid -> HttpStatus.UNPROCESSABLE_CONTENT;
            case Forbidden -> HttpStatus.FORBIDDEN;
            case NotFound -> HttpStatus.NOT_FOUND;
            case Conflict -> HttpStatus.CONFLICT;
            case UnsupportedMediaType -> HttpStatus.UNSUPPORTED_MEDIA_TYPE;
            case TooLarge -> HttpStatus.CONTENT_TOO_LARGE;
            case TooManyRequests -> HttpStatus.TOO_MANY_REQUESTS;
        };
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e) {
        if (DatabaseUnavailable.causes(e)) {
            log.warn("database unavailable, answered 503: {}", DatabaseUnavailable.describe(e));
            ResponseEntity<ProblemDetail> unavailable = problem(HttpStatus.SERVICE_UNAVAILABLE, "Service Unavailable",
                    "The database is unavailable; nothing was changed unless a retry with the same Idempotency-Key"
                            + " says so. Retry after " + DatabaseUnavailable.RETRY_AFTER_SECONDS + " seconds.",
                    List.of());
            return ResponseEntity.status(unavailable.getStatusCode())
                    .header(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseUnavailable.RETRY_AFTER_SECONDS))
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON).body(unavailable.getBody());
        }
        if (unstorableText(e)) {
            return problem(HttpStatus.BAD_REQUEST, "Bad Request", "the request holds text PostgreSQL cannot store"
                    + " (the NUL character, \\u0000); nothing was changed", List.of());
        }
        log.error("unexpected error serving a request", e);
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal Server Error",
                "The platform failed to handle the request; the error is logged.", List.of());
    }

    /** A query parameter of a fixed set of values ({@code fieldValidation=Strict}) names them when it is none of them. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
                                                        HttpStatusCode status, WebRequest request) {
        Class<?> type = ex.getRequiredType();
        if (type != null && type.isEnum() && ex.getPropertyName() != null) {
            String allowed = Arrays.stream(type.getEnumConstants()).map(String::valueOf)
                    .collect(Collectors.joining(", "));
            ResponseEntity<ProblemDetail> problem = problem(HttpStatus.BAD_REQUEST, "Bad Request",
                    ex.getPropertyName() + " must be one of " + allowed + "; found '" + ex.getValue() + "'", List.of());
            return ResponseEntity.status(problem.getStatusCode()).headers(problem.getHeaders()).body(problem.getBody());
        }
        return super.handleTypeMismatch(ex, headers, status, request);
    }

    /** Spring MVC's own errors (unsupported media type, missing parameter, ...) in the same shape. */
    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
                                                             HttpStatusCode statusCode, WebRequest request) {
        ResponseEntity<Object> response = super.handleExceptionInternal(ex, body, headers, statusCode, request);
        if (response != null && response.getBody() instanceof ProblemDetail detail) {
            detail.setProperty("errors", List.of());
            return ResponseEntity.status(response.getStatusCode())
                    .headers(response.getHeaders())
                    .contentType(MediaType.APPLICATION_PROBLEM_JSON)
                    .body(detail);
        }
        return response;
    }

    /**
     * PostgreSQL refuses U+0000 in text and jsonb (SQLSTATE 22P05, untranslatable character; 22021,
     * character not in repertoire): the client's input, not a fault of the platform, and the
     * transaction rolled back whole.
     */
    private static boolean unstorableText(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql && ("22P05".equals(sql.getSQLState()) || "22021".equals(sql.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatusCode status, String title, String detail, List<?> errors) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setTitle(title);
        problem.setProperty("errors", errors);
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
    }

    private static String titleOf(ManifestRejectedException.Cause cause) {
        return switch (cause) {
            case MALFORMED -> "Malformed manifest";
            case INVALID -> "Invalid manifest";
            case TOO_LARGE -> "Request body too large";
        };
    }
}
