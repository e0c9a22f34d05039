package dev.platform.agent.webhook;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One reason a review refuses an object, worded as the API server words field errors (apimachinery's
 * {@code field.Error}), so kubectl shows what it shows for Kueue's webhook: {@code spec.suspend: Forbidden: ...}.
 */
record FieldError(String field, Type type, String value, String detail) {

    enum Type {
        INVALID("FieldValueInvalid", "Invalid value"),
        FORBIDDEN("FieldValueForbidden", "Forbidden");

        private final String reason;
        private final String label;

        Type(String reason, String label) {
            this.reason = reason;
            this.label = label;
        }

        String reason() {
            return reason;
        }
    }

    static FieldError invalid(String field, String value, String detail) {
        return new FieldError(field, Type.INVALID, value, detail);
    }

    static FieldError forbidden(String field, String detail) {
        return new FieldError(field, Type.FORBIDDEN, null, detail);
    }

    /** {@code Invalid value: "x": field is immutable}, or {@code Forbidden: ...}: a cause's message. */
    String body() {
        return type == Type.INVALID ? type.label + ": \"" + value + "\": " + detail : type.label + ": " + detail;
    }

    @Override
    public String toString() {
        return field + ": " + body();
    }

    /** apimachinery's aggregate: one error as it is, several in brackets. */
    static String aggregate(List<FieldError> errors) {
        String joined = errors.stream().map(FieldError::toString).collect(Collectors.joining(", "));
        return errors.size() == 1 ? joined : "[" + joined + "]";
    }
}
