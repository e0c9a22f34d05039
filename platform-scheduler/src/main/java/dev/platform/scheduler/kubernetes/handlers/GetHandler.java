package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** GET of one object: the object in the asked version, or a one-row Table for {@code kubectl get NAME}. */
public final class GetHandler {

    private final Resources resources;
    private final Responses responses;
    private final Tables tables;

    private final FieldManagers managers;

    GetHandler(Resources resources, Responses responses, Tables tables, FieldManagers managers) {
        this.managers = managers;
        this.resources = resources;
        this.responses = responses;
        this.tables = tables;
    }

    public void handle(ApiRequest request, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.get);
        if (request.subresource() != null && !request.subresource().equals("status")) {
            responses.write(response, kind.store().subresource(request.namespaceFor(kind), request.name(),
                            request.subresource(), request.parameters(), request.caller())
                    .orElseThrow(() -> StatusError.notFound(kind, request.name())));
            return;
        }
        Map<String, Object> object = kind.store().get(request.namespaceFor(kind), request.name(), request.caller())
                .map(o -> kind.inVersion(o, request.version()))
                .orElseThrow(() -> StatusError.notFound(kind, request.name()));
        if (Tables.wanted(request.accept())) {
            String resourceVersion = String.valueOf(((Map<?, ?>) object.get("metadata")).get("resourceVersion"));
            responses.write(response, tables.table(kind, List.of(object), resourceVersion, null,
                    request.parameter("includeObject")));
        } else {
            responses.write(response, managers.shown(kind, object));
        }
    }
}
