package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ResourceKind;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A refusal answered as a {@code metav1.Status}, built by one family of constructors with kube-apiserver's wording
 * (its {@code apimachinery/pkg/api/errors}), so kubectl prints what its users know: {@code Error from server
 * (NotFound): clusterqueues.kueue.x-k8s.io "a" not found}.
 */
public final class StatusError extends RuntimeException {

    /** One {@code details.causes} entry: what is wrong at which field path. */
    public record Cause(String reason, String message, String field) {
    }

    private final int code;
    private final String reason;
    private final Map<String, Object> details;

    private StatusError(int code, String reason, String message, Map<String, Object> details) {
        super(message);
        this.code = code;
        this.reason = reason;
        this.details = details;
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    /** The Status object kube-apiserver would answer. */
    public Map<String, Object> status() {
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.put("metadata", Map.of());
        status.put("status", "Failure");
        status.put("message", getMessage());
        status.put("reason", reason);
        if (details != null && !details.isEmpty()) {
            status.put("details", details);
        }
        status.put("code", code);
        return status;
    }

    private static Map<String, Object> details(ResourceKind kind, String name) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (name != null) {
            details.put("name", name);
        }
        if (kind != null) {
            details.put("group", kind.group());
            details.put("kind", kind.plural());
        }
        return details;
    }

    public static StatusError notFound(ResourceKind kind, String name) {
        return new StatusError(404, "NotFound", kind.qualifiedResource() + " \"" + name + "\" not found",
                details(kind, name));
    }

    /** A path that names no served resource. */
    public static StatusError noResource() {
        return new StatusError(404, "NotFound", "the server could not find the requested resource", Map.of());
    }

    public static StatusError alreadyExists(ResourceKind kind, String name) {
        return new StatusError(409, "AlreadyExists", kind.qualifiedResource() + " \"" + name + "\" already exists",
                details(kind, name));
    }

    /** An update whose resourceVersion precondition no longer holds. */
    public static StatusError conflict(ResourceKind kind, String name, String why) {
        return new StatusError(409, "Conflict", "Operation cannot be fulfilled on " + kind.qualifiedResource() + " \""
                + name + "\": " + why, details(kind, name));
    }

    public static StatusError staleObject(ResourceKind kind, String name) {
        return conflict(kind, name, "the object has been modified; please apply your changes to the latest version"
                + " and try again");
    }

    /** 422 with each field's problem, as {@code NewInvalid} words it. */
    public static StatusError invalid(ResourceKind kind, String name, List<Cause> causes) {
        String summary = causes.size() == 1 ? causes.get(0).field() + ": " + causes.get(0).message()
                : "[" + String.join(", ", causes.stream().map(c -> c.field() + ": " + c.message()).toList()) + "]";
        Map<String, Object> details = details(kind, name);
        details.put("kind", kind.kind());
        details.put("causes", causes.stream().map(c -> {
            Map<String, Object> cause = new LinkedHashMap<>();
            cause.put("reason", c.reason());
            cause.put("message", c.message());
            cause.put("field", c.field());
            return cause;
        }).toList());
        return new StatusError(422, "Invalid", kind.qualifiedKind() + " \"" + name + "\" is invalid: "
                + summary, details);
    }

    /** Server-side apply's refusal of fields other managers own, as kube-apiserver words it. */
    public static StatusError applyConflicts(ResourceKind kind, String name, List<Cause> conflicts) {
        StringBuilder message = new StringBuilder("Apply failed with " + conflicts.size() + " conflict"
                + (conflicts.size() == 1 ? "" : "s") + ":");
        for (Cause conflict : conflicts) {
            message.append(conflicts.size() == 1 ? " " : "\n* ").append(conflict.message()).append(": ")
                    .append(conflict.field());
        }
        Map<String, Object> details = details(kind, name);
        details.put("causes", conflicts.stream().map(c -> {
            Map<String, Object> cause = new LinkedHashMap<>();
            cause.put("reason", c.reason());
            cause.put("message", c.message());
            cause.put("field", c.field());
            return cause;
        }).toList());
        return new StatusError(409, "Conflict", message.toString(), details);
    }

    public static StatusError badRequest(String message) {
        return new StatusError(400, "BadRequest", message, Map.of());
    }

    /** Kubernetes' answer to a body with fields its schema lacks, under {@code fieldValidation=Strict}. */
    public static StatusError strictDecoding(ResourceKind kind, String version, List<String> unknownFields) {
        return badRequest(kind.kind() + " in version \"" + version + "\" cannot be handled as a " + kind.kind()
                + ": strict decoding error: " + String.join(", ", unknownFields));
    }

    /**
     * kube-apiserver's RBAC refusal, with the platform's reason after it: {@code jobsets.jobset.x-k8s.io "a" is
     * forbidden: User "bob" cannot delete resource "jobsets" in API group "jobset.x-k8s.io" in the namespace "b"}.
     */
    public static StatusError forbidden(ResourceKind kind, String name, String user, String verb, String namespace,
                                        String why) {
        String subject = name == null ? kind.qualifiedResource() : kind.qualifiedResource() + " \"" + name + "\"";
        String scope = namespace == null || namespace.isEmpty() ? "at the cluster scope"
                : "in the namespace \"" + namespace + "\"";
        String message = subject + " is forbidden: User \"" + user + "\" cannot " + verb + " resource \""
                + kind.plural() + "\" in API group \"" + kind.group() + "\" " + scope + (why == null ? "" : ": " + why);
        return new StatusError(403, "Forbidden", message, details(kind, name));
    }

    /**
     * A validating admission webhook's refusal as kube-apiserver passes it on: 403 with the webhook's name before its
     * message.
     */
    public static StatusError deniedByWebhook(String webhook, String message) {
        return new StatusError(403, "Forbidden", "admission webhook \"" + webhook + "\" denied the request: " + message,
                Map.of());
    }

    public static StatusError unauthorized(String message) {
        return new StatusError(401, "Unauthorized", message, Map.of());
    }

    public static StatusError methodNotSupported() {
        return new StatusError(405, "MethodNotAllowed",
                "the server does not allow this method on the requested resource", Map.of());
    }

    public static StatusError unsupportedMediaType(String contentType) {
        return new StatusError(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: application/json-patch+json, application/merge-patch+json, "
                + "application/apply-patch+yaml" + (contentType == null ? "" : "; got " + contentType), Map.of());
    }

    /** A watch or list from a resourceVersion older than the change log keeps. */
    public static StatusError expired(String message) {
        return new StatusError(410, "Expired", message, Map.of());
    }

    public static StatusError unprocessable(String message) {
        return new StatusError(422, "Invalid", message, Map.of());
    }

    public static StatusError requestTooLarge() {
        return new StatusError(413, "RequestEntityTooLarge", "Request entity too large: limit is 3145728", Map.of());
    }

    public static StatusError internal(String message) {
        return new StatusError(500, "InternalError", "Internal error occurred: " + message, Map.of());
    }

    public static StatusError tooManyRequests(String message, long retryAfterSeconds) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("retryAfterSeconds", retryAfterSeconds);
        return new StatusError(429, "TooManyRequests", message, details);
    }
}
