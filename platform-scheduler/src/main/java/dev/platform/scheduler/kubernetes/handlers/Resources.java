package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.ImmutableWorkloadChange;

import java.util.List;
import java.util.Map;

/**
 * What every verb handler does first and last: finds the resource a request names, checks that it serves the verb
 * and that the caller may use it, and words what the platform's services refuse as kube-apiserver would.
 */
final class Resources {

    private final KindRegistry registry;

    Resources(KindRegistry registry) {
        this.registry = registry;
    }

    ResourceKind resolve(ApiRequest request) {
        ResourceKind kind = registry.find(request.group(), request.version(), request.resource())
                .orElseThrow(StatusError::noResource);
        if (request.subresource() != null && !kind.subresources().contains(request.subresource())) {
            throw StatusError.noResource();
        }
        if (kind.namespaced() && request.namespace() == null && request.name() != null) {
            throw StatusError.noResource();
        }
        if (!kind.namespaced() && request.namespace() != null) {
            throw StatusError.noResource();
        }
        if (!kind.serves(request.verb())) {
            throw StatusError.methodNotSupported();
        }
        return kind;
    }

    void authorize(ResourceKind kind, ApiRequest request, Verb verb) {
        kind.access().refusal(request.caller(), verb, request.namespaceFor(kind)).ifPresent(why -> {
            throw StatusError.forbidden(kind, request.name(), request.caller().name(), verb.name(),
                    request.namespaceFor(kind), why);
        });
    }

    /** A refusal of the platform's services or stores, worded for the object {@code name} of {@code kind}. */
    static StatusError translate(RuntimeException e, ResourceKind kind, ApiRequest request, String name) {
        String version = request.version();
        if (e instanceof StatusError status) {
            return status;
        }
        if (e instanceof ObjectStore.WriteRefusal refusal) {
            return refusal.reason() == ObjectStore.WriteRefusal.Reason.ALREADY_EXISTS
                    ? StatusError.alreadyExists(kind, name) : StatusError.notFound(kind, name);
        }
        if (e instanceof ManifestRejectedException rejected) {
            List<ManifestError> errors = rejected.errors();
            if (rejected.rejection() != ManifestRejectedException.Cause.INVALID) {
                return StatusError.badRequest(errors.isEmpty() ? "the request body could not be read"
                        : errors.get(0).message());
            }
            List<String> unknown = errors.stream().map(ManifestError::message)
                    .filter(m -> m.startsWith("unknown field")).toList();
            if (!unknown.isEmpty() && unknown.size() == errors.size()) {
                return StatusError.strictDecoding(kind, version, unknown);
            }
            return StatusError.invalid(kind, name, errors.stream().map(err -> new StatusError.Cause(
                    "FieldValueInvalid", err.message(), err.path())).toList());
        }
        if (e instanceof ImmutableWorkloadChange change) {
            return immutable(kind, name, change.field());
        }
        if (e instanceof Refusal refusal) {
            return switch (refusal.kind()) {
                case NotFound -> StatusError.notFound(kind, name);
                case Forbidden -> StatusError.forbidden(kind, name, request.caller().name(), request.verb().name(),
                        request.namespaceFor(kind), refusal.getMessage());
                case Conflict -> StatusError.conflict(kind, name, refusal.getMessage());
                case Invalid -> StatusError.invalid(kind, name, causes(refusal));
                case TooManyRequests -> StatusError.tooManyRequests(refusal.getMessage(),
                        refusal.retryAfter() == null ? 1 : Math.max(1, refusal.retryAfter().toSeconds()));
                default -> StatusError.badRequest(refusal.getMessage());
            };
        }
        throw e;
    }

    /**
     * A submitted workload changed where it may not: for a Job, kube-apiserver's own validation (422, spec.template
     * and the rest are immutable); for a JobSet and a Kueue Workload, the refusal of JobSet's and Kueue's validating
     * webhooks (403), as a cluster with them installed answers.
     */
    private static StatusError immutable(ResourceKind kind, String name, String field) {
        String invalid = "Invalid value: field is immutable";
        return switch (kind.kind()) {
            case "Job" -> StatusError.invalid(kind, name, List.of(new StatusError.Cause("FieldValueInvalid", invalid,
                    field)));
            case "JobSet" -> StatusError.deniedByWebhook("vjobset.kb.io", field + ": " + invalid);
            default -> StatusError.deniedByWebhook("vworkload.kb.io", field + ": " + invalid);
        };
    }

    private static List<StatusError.Cause> causes(Refusal refusal) {
        List<StatusError.Cause> causes = refusal.errors().stream().map(err -> err instanceof Map<?, ?> m
                ? new StatusError.Cause("FieldValueInvalid", String.valueOf(m.get("message")),
                String.valueOf(m.containsKey("path") ? m.get("path") : ""))
                : new StatusError.Cause("FieldValueInvalid", String.valueOf(err), "")).toList();
        return causes.isEmpty() ? List.of(new StatusError.Cause("FieldValueInvalid", refusal.getMessage(), ""))
                : causes;
    }
}
