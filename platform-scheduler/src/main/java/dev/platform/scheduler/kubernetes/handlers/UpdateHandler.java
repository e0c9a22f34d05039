package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;

/**
 * PUT of an object: replaces it (200); a {@code metadata.resourceVersion} in the body is a precondition, and one
 * that is no longer current is a 409 Conflict, as optimistic concurrency in Kubernetes goes.
 */
public final class UpdateHandler {

    private final Resources resources;
    private final Responses responses;
    private final Bodies bodies;

    private final FieldManagers managers;

    UpdateHandler(Resources resources, Responses responses, Bodies bodies, FieldManagers managers) {
        this.managers = managers;
        this.resources = resources;
        this.responses = responses;
        this.bodies = bodies;
    }

    public void handle(ApiRequest request, HttpServletRequest http, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.update);
        Map<String, Object> object = Bodies.matched(bodies.object(bodies.read(http.getInputStream()),
                request.contentType()), kind, request);
        Map<String, Object> before = kind.store().get(request.namespaceFor(kind), request.name(), request.caller())
                .map(o -> kind.inVersion(o, request.version())).orElse(null);
        ObjectStore.Written written = replace(kind, request, object);
        responses.write(response, 200, recorded(managers, kind, request, before, written), written.warnings());
    }

    /** The written object with the write's field manager recorded (nothing for a dry run). */
    static Map<String, Object> recorded(FieldManagers managers, ResourceKind kind, ApiRequest request,
                                        Map<String, Object> before, ObjectStore.Written written) {
        Map<String, Object> after = kind.inVersion(written.object(), request.version());
        return request.dryRun() ? after : managers.record(kind, request.fieldManager(), "Update",
                kind.apiVersion(request.version()), before, null, after);
    }

    /**
     * Replaces the stored object with {@code object} (in the request's version), its resourceVersion, when it has
     * one, checked against the stored one; the patch handler replaces through here too.
     */
    static ObjectStore.Written replace(ResourceKind kind, ApiRequest request, Map<String, Object> object) {
        Map<String, Object> current = kind.store().get(request.namespaceFor(kind), request.name(), request.caller())
                .orElseThrow(() -> StatusError.notFound(kind, request.name()));
        Object expected = Objects.metadata(object).get("resourceVersion");
        if (expected != null && !"".equals(expected)
                && !String.valueOf(expected).equals(String.valueOf(Objects.metadata(current).get("resourceVersion")))) {
            throw StatusError.staleObject(kind, request.name());
        }
        try {
            return kind.store().update(kind.inVersion(object, kind.preferredVersion()),
                    new ObjectStore.WriteOptions(request.dryRun(), request.fieldValidation(),
                            request.parameter("fieldManager")), request.caller());
        } catch (RuntimeException e) {
            throw Resources.translate(e, kind, request, request.name());
        }
    }
}
