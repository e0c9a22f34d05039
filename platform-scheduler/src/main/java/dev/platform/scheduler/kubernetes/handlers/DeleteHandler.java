package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.Map;

/**
 * DELETE of an object: gone at once (no finalizers), answered 200 with the object as it was last, so
 * {@code kubectl delete} returns and its {@code --wait} finds it gone; a deleted JobSet's name is free again.
 */
public final class DeleteHandler {

    private final Resources resources;
    private final Responses responses;

    private final FieldManagers managers;

    DeleteHandler(Resources resources, Responses responses, FieldManagers managers) {
        this.managers = managers;
        this.resources = resources;
        this.responses = responses;
    }

    public void handle(ApiRequest request, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.delete);
        Map<String, Object> last;
        try {
            last = kind.store().delete(request.namespaceFor(kind), request.name(),
                    new ObjectStore.WriteOptions(request.dryRun(), request.fieldValidation(), null), request.caller());
        } catch (RuntimeException e) {
            throw Resources.translate(e, kind, request, request.name());
        }
        if (!request.dryRun()) {
            managers.forget(kind, request.namespaceFor(kind), request.name());
        }
        responses.write(response, 200, kind.inVersion(last, request.version()), java.util.List.of());
    }
}
