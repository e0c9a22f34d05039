package dev.platform.scheduler.preemption;

import dev.platform.scheduler.refusal.Refusal;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The query parameters the audits share, checked as one: a page's size and the times of a window. */
final class AuditParameters {

    static final int MAX_PAGE = 1000;

    private AuditParameters() {
    }

    static void checkLimit(int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw badRequest("limit must be between 1 and " + MAX_PAGE);
        }
    }

    /** {@code value} as an RFC 3339 time; null when absent. */
    static Instant time(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw badRequest(name + " must be an RFC 3339 time such as 2026-11-29T10:00:00Z");
        }
    }

    static Refusal badRequest(String detail) {
        return new Refusal(Refusal.Kind.Malformed, "Bad Request", detail, List.of());
    }
}
