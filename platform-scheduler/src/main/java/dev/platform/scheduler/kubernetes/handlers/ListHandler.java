package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A list: every object the caller may read, in key order, filtered by label and field selectors, a page at a time
 * with {@code limit} and {@code continue}; a Table when kubectl asks for one. Its resourceVersion is the revision
 * every change up to which the list includes, from which a watch goes on.
 */
public final class ListHandler {

    private final Resources resources;
    private final Responses responses;
    private final Tables tables;
    private final Revisions revisions;

    ListHandler(Resources resources, Responses responses, Tables tables, Revisions revisions) {
        this.resources = resources;
        this.responses = responses;
        this.tables = tables;
        this.revisions = revisions;
    }

    public void handle(ApiRequest request, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.list);
        long revision = kind.store().ownRevision().orElseGet(revisions::current);
        ListResult result = list(kind, request);
        String resourceVersion = String.valueOf(revision);
        String next = result.page().more() ? continueToken(result.page()) : null;
        if (Tables.wanted(request.accept())) {
            responses.write(response, tables.table(kind, result.items(), resourceVersion, next,
                    request.parameter("includeObject")));
            return;
        }
        Map<String, Object> list = new LinkedHashMap<>();
        list.put("apiVersion", kind.apiVersion(request.version()));
        list.put("kind", kind.kind() + "List");
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resourceVersion", resourceVersion);
        if (next != null) {
            metadata.put("continue", next);
        }
        list.put("metadata", metadata);
        list.put("items", result.items());
        responses.write(response, list);
    }

    record ListResult(ObjectStore.Page page, List<Map<String, Object>> items) {
    }

    /** One page of the list the request asks for, in the asked version. */
    static ListResult list(ResourceKind kind, ApiRequest request) {
        ObjectStore.Selector selector = Selectors.of(request.parameter("labelSelector"),
                request.parameter("fieldSelector"), fieldsOf(kind));
        int limit = parseLimit(request.parameter("limit"));
        ObjectStore.Key after = request.parameter("continue") == null ? null
                : decodeContinue(request.parameter("continue"));
        ObjectStore.Page page = kind.store().list(new ObjectStore.ListQuery(request.namespaceFor(kind), selector,
                limit, after, Selectors.equalities(request.parameter("fieldSelector")),
                Tables.wanted(request.accept()) && !"Object".equals(request.parameter("includeObject"))),
                request.caller());
        return new ListResult(page, page.items().stream().map(o -> kind.inVersion(o, request.version())).toList());
    }

    /** The fields a field selector may name: every kind's metadata.name and metadata.namespace, and the kind's own. */
    static List<String> fieldsOf(ResourceKind kind) {
        return switch (kind.kind()) {
            case "Workload" -> List.of("metadata.name", "metadata.namespace", "status.admission.clusterQueue",
                    "spec.queueName");
            case "Event" -> List.of("metadata.name", "metadata.namespace", "involvedObject.kind",
                    "involvedObject.name", "involvedObject.namespace", "involvedObject.uid", "reason", "type");
            default -> List.of("metadata.name", "metadata.namespace");
        };
    }

    private static int parseLimit(String limit) {
        if (limit == null || limit.isEmpty()) {
            return 0;
        }
        try {
            return Math.max(0, Integer.parseInt(limit));
        } catch (NumberFormatException e) {
            throw StatusError.badRequest("limit: Invalid value: \"" + limit + "\": must be a whole number");
        }
    }

    private static String continueToken(ObjectStore.Page page) {
        ObjectStore.Key after = page.continueAfter();
        if (after == null) {
            Map<String, Object> last = page.items().get(page.items().size() - 1);
            String namespace = Objects.namespace(last);
            after = new ObjectStore.Key(namespace == null ? "" : namespace, Objects.name(last));
        }
        String key = after.namespace() + "/" + after.name();
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    private static ObjectStore.Key decodeContinue(String token) {
        try {
            String key = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int slash = key.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("no key");
            }
            return new ObjectStore.Key(key.substring(0, slash), key.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw StatusError.badRequest("continue key is not valid: " + e.getMessage());
        }
    }
}
