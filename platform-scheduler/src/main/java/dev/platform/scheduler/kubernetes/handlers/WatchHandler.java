package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A watch: newline-delimited JSON events (ADDED, MODIFIED, DELETED, BOOKMARK, ERROR) from a resourceVersion on, as
 * kube-apiserver streams them; without one (or with "0"), the current objects first as ADDED. Events are Tables'
 * rows when kubectl asks for Tables ({@code kubectl get -w}). A revision older than the log keeps is a 410 Expired
 * ERROR event, after which clients list again. Intermediate states of one object between two reads of the log are
 * folded into the latest, as an informer would keep them anyway.
 */
public final class WatchHandler {

    private static final int BATCH = 500;
    private static final Duration BOOKMARK_EVERY = Duration.ofSeconds(30);

    private final Resources resources;
    private final Responses responses;
    private final Tables tables;
    private final Revisions revisions;
    private final ChangeLog changes;
    private final JsonMapper json;

    WatchHandler(Resources resources, Responses responses, Tables tables, Revisions revisions, ChangeLog changes,
                 JsonMapper json) {
        this.resources = resources;
        this.responses = responses;
        this.tables = tables;
        this.revisions = revisions;
        this.changes = changes;
        this.json = json;
    }

    public void handle(ApiRequest request, HttpServletResponse response) throws IOException {
        ResourceKind kind = resources.resolve(request);
        resources.authorize(kind, request, Verb.watch);
        if (ApiRequest.isTrue(request.parameter("sendInitialEvents"))) {
            throw StatusError.invalid(kind, "", List.of(new StatusError.Cause("FieldValueForbidden",
                    "Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
                    "sendInitialEvents")));
        }
        ObjectStore.Selector selector = Selectors.of(request.parameter("labelSelector"),
                request.parameter("fieldSelector"), ListHandler.fieldsOf(kind));
        String from = request.parameter("resourceVersion");
        boolean table = Tables.wanted(request.accept());
        boolean bookmarks = ApiRequest.isTrue(request.parameter("allowWatchBookmarks"));
        long timeoutSeconds = timeout(request.parameter("timeoutSeconds"));

        response.setStatus(200);
        response.setContentType("application/json");
        ServletOutputStream out = response.getOutputStream();
        long revision;
        if (from == null || from.isEmpty() || from.equals("0")) {
            revision = revisions.current();
            ListHandler.ListResult initial = ListHandler.list(kind, request.withoutPaging());
            for (Map<String, Object> object : initial.items()) {
                send(out, "ADDED", kind, request, object, table);
            }
        } else {
            revision = parseRevision(from);
            long compacted = changes.compacted();
            if (revision < compacted) {
                StatusError expired = StatusError.expired("too old resource version: " + revision + " ("
                        + compacted + ")");
                write(out, Map.of("type", "ERROR", "object", expired.status()));
                return;
            }
        }
        out.flush();
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        long nextBookmark = System.nanoTime() + BOOKMARK_EVERY.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                // Every change up to this revision is committed and visible to the read below.
                long committed = changes.latest();
                ObjectStore.Changes read = kind.store().changesAfter(revision, BATCH, request.caller());
                for (ObjectStore.Change change : read.changes()) {
                    Map<String, Object> object = change.object();
                    if (namespaceMatches(kind, request, object) && selector.matches(object)) {
                        send(out, change.type(), kind, request, object, table);
                    }
                }
                if (!read.changes().isEmpty()) {
                    out.flush();
                }
                if (read.more()) {
                    revision = read.readUpTo();
                    continue;
                }
                revision = Math.max(revision, Math.max(read.readUpTo(), committed));
                if (bookmarks && System.nanoTime() > nextBookmark) {
                    bookmark(out, kind, request, revision);
                    out.flush();
                    nextBookmark = System.nanoTime() + BOOKMARK_EVERY.toNanos();
                }
                changes.awaitAfter(revision, Duration.ofSeconds(1));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away
        }
    }

    private static boolean namespaceMatches(ResourceKind kind, ApiRequest request, Map<String, Object> object) {
        return !kind.namespaced() || request.namespace() == null
                || request.namespace().equals(Objects.namespace(object));
    }

    private void send(ServletOutputStream out, String type, ResourceKind kind, ApiRequest request,
                      Map<String, Object> object, boolean table) throws IOException {
        Map<String, Object> inVersion = kind.inVersion(object, request.version());
        Object payload = table ? tableOf(kind, inVersion, request) : inVersion;
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("type", type);
        event.put("object", payload);
        write(out, event);
    }

    private Map<String, Object> tableOf(ResourceKind kind, Map<String, Object> object, ApiRequest request) {
        Map<String, Object> resourceVersion = Objects.metadata(object);
        return tables.table(kind, List.of(object), String.valueOf(resourceVersion.get("resourceVersion")), null,
                request.parameter("includeObject"));
    }

    private void bookmark(ServletOutputStream out, ResourceKind kind, ApiRequest request, long revision)
            throws IOException {
        Map<String, Object> object = new LinkedHashMap<>();
        object.put("kind", kind.kind());
        object.put("apiVersion", kind.apiVersion(request.version()));
        object.put("metadata", Map.of("resourceVersion", String.valueOf(revision)));
        write(out, Map.of("type", "BOOKMARK", "object", object));
    }

    private void write(ServletOutputStream out, Object event) throws IOException {
        out.write(json.writeValueAsBytes(event));
        out.write('\n');
    }

    private static long parseRevision(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw StatusError.badRequest("resourceVersion: Invalid value: \"" + value + "\": must be a number");
        }
    }

    /** kube-apiserver's: the asked timeout, else between 30 and 60 minutes so watches do not end together. */
    private static long timeout(String value) {
        if (value == null || value.isEmpty()) {
            return 1800 + ThreadLocalRandom.current().nextLong(1800);
        }
        try {
            return Math.max(1, Long.parseLong(value));
        } catch (NumberFormatException e) {
            throw StatusError.badRequest("timeoutSeconds: Invalid value: \"" + value + "\": must be a number");
        }
    }
}
