package dev.platform.scheduler.refusal;

import java.time.Duration;
import java.util.List;

/**
 * A request the platform refuses for a reason the caller can act on, said in the domain's terms: services and
 * controllers throw it, and the web layer's problem advice alone decides how each {@link Kind} is answered
 * (RFC 9457 problem+json with the status that kind maps to).
 */
public class Refusal extends RuntimeException {

    /** Why the request is refused. */
    public enum Kind {
        /** The request cannot be understood as sent: a malformed parameter, cursor or body field. */
        Malformed,
        /** Understood, but the object it describes is not valid: what {@code errors} lists. */
        Invalid,
        /** The caller's roles do not allow it; said the same whether or not the object exists. */
        Forbidden,
        NotFound,
        /** It contradicts the current state: a name in use, an object still referenced, a report out of order. */
        Conflict,
        /** The body's media type is not one this endpoint reads. */
        UnsupportedMediaType,
        /** The body is larger than the endpoint accepts. */
        TooLarge,
        /** The caller is over its rate; {@link #retryAfter()} says how long to wait. */
        TooManyRequests
    }

    private final Kind kind;
    private final String title;
    private final transient List<Object> errors;
    private final Duration retryAfter;

    public Refusal(Kind kind, String title, String detail, List<?> errors) {
        this(kind, title, detail, errors, null);
    }

    private Refusal(Kind kind, String title, String detail, List<?> errors, Duration retryAfter) {
        super(detail);
        this.kind = kind;
        this.title = title;
        this.errors = List.copyOf(errors);
        this.retryAfter = retryAfter;
    }

    public static Refusal notFound(String kind, String name) {
        return new Refusal(Kind.NotFound, "Not Found", kind + " \"" + name + "\" not found", List.of());
    }

    public static Refusal forbidden(String detail) {
        return new Refusal(Kind.Forbidden, "Forbidden", detail, List.of());
    }

    public static Refusal conflict(String detail, List<?> references) {
        return new Refusal(Kind.Conflict, "Conflict", detail, references);
    }

    /** A conflict that passes: {@code retryAfter} says when the state may allow the request. */
    public static Refusal conflict(String title, String detail, Duration retryAfter) {
        return new Refusal(Kind.Conflict, title, detail, List.of(), retryAfter);
    }

    public static Refusal malformed(String detail) {
        return new Refusal(Kind.Malformed, "Bad Request", detail, List.of());
    }

    public static Refusal tooManyRequests(String detail, Duration retryAfter) {
        return new Refusal(Kind.TooManyRequests, "Too Many Requests", detail, List.of(), retryAfter);
    }

    public Kind kind() {
        return kind;
    }

    public String title() {
        return title;
    }

    public List<Object> errors() {
        return errors;
    }

    /** How long the caller should wait before trying again, for a {@code Retry-After} header; null when not said. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
