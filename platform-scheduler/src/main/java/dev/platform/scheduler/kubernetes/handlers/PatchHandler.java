package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PATCH of an object in the four formats of kube-apiserver; the patched object then replaces the stored one as an
 * update would (and is refused as one would be). Server-side apply creates the object when it does not exist.
 */
public final class PatchHandler {

    /** The groups of Kubernetes' own types, which take strategic merge patches; custom resources do not. */
    private static final Set<String> BUILT_IN_GROUPS = Set.of("", "batch", "scheduling.k8s.io");

    private final Resources resources;
    private final Responses responses;
    private final Bodies bodies;

    private final FieldManagers managers;

    PatchHandler(Resources resources, Responses responses, Bodies bodies, FieldManagers managers) {
        this.managers = managers;
        this.resources = resources;
        this.responses = responses;
        this.bodies = bodies;
    }

    @SuppressWarnings("unchecked")
    public void handle(ApiRequest request, HttpServletRequest http, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.patch);
        String type = request.contentType() == null ? "" : request.contentType().split(";")[0].strip();
        byte[] body = bodies.read(http.getInputStream());
        if (type.equals("application/apply-patch+yaml")) {
            apply(kind, request, response, body);
            return;
        }
        Map<String, Object> current = kind.store().get(request.namespaceFor(kind), request.name(), request.caller())
                .map(o -> kind.inVersion(o, request.version()))
                .orElseThrow(() -> StatusError.notFound(kind, request.name()));
        Object patched = switch (type) {
            case "application/merge-patch+json" -> Patches.mergePatch(current, bodies.object(body, type));
            case "application/json-patch+json" -> Patches.jsonPatch(current, jsonList(body));
            case "application/strategic-merge-patch+json" -> {
                if (!BUILT_IN_GROUPS.contains(kind.group())) {
                    throw StatusError.unsupportedMediaType(type);
                }
                yield Patches.strategicMergePatch(current, bodies.object(body, type));
            }
            default -> throw StatusError.unsupportedMediaType(type);
        };
        if (!(patched instanceof Map<?, ?>)) {
            throw StatusError.badRequest("the patch does not leave an object");
        }
        Map<String, Object> object = Bodies.matched((Map<String, Object>) patched, kind, request);
        ObjectStore.Written written = UpdateHandler.replace(kind, request, object);
        responses.write(response, 200, UpdateHandler.recorded(managers, kind, request, current, written),
                written.warnings());
    }

    private void apply(ResourceKind kind, ApiRequest request, HttpServletResponse response, byte[] body)
            throws IOException {
        String manager = request.parameter("fieldManager");
        if (manager == null || manager.isEmpty()) {
            throw StatusError.invalid(kind, request.name(), List.of(new StatusError.Cause("FieldValueRequired",
                    "Required value: is required for apply patch", "fieldManager")));
        }
        Map<String, Object> applied = Bodies.matched(bodies.object(body, "application/yaml"), kind, request);
        var current = kind.store().get(request.namespaceFor(kind), request.name(), request.caller());
        ObjectStore.WriteOptions options = new ObjectStore.WriteOptions(request.dryRun(), request.fieldValidation(),
                manager);
        ObjectStore.Written written;
        int status;
        try {
            if (current.isEmpty()) {
                written = kind.store().create(kind.inVersion(applied, kind.preferredVersion()), options,
                        request.caller());
                status = 201;
            } else {
                Map<String, Object> live = kind.inVersion(current.get(), request.version());
                managers.checkApply(kind, request, manager, live, applied);
                Map<String, Object> merged = Patches.applyConfiguration(live, applied);
                Objects.mapIn(merged, "metadata").remove("resourceVersion");
                written = kind.store().update(kind.inVersion(merged, kind.preferredVersion()), options,
                        request.caller());
                status = 200;
            }
        } catch (RuntimeException e) {
            throw Resources.translate(e, kind, request, request.name());
        }
        Map<String, Object> after = kind.inVersion(written.object(), request.version());
        if (!request.dryRun()) {
            after = managers.record(kind, manager, "Apply", kind.apiVersion(request.version()),
                    current.map(o -> kind.inVersion(o, request.version())).orElse(null), applied, after);
        }
        responses.write(response, status, after, written.warnings());
    }

    private List<?> jsonList(byte[] body) {
        try {
            return responses.json().readValue(body, new TypeReference<List<Object>>() {
            });
        } catch (JacksonException e) {
            throw StatusError.badRequest("the body of a JSON patch is not a JSON list: " + e.getOriginalMessage());
        }
    }
}
