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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
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
        OptionalLong ownRevision = kind.store().ownRevision();
        Watch watch = new Watch(kind, request, selector, table, ownRevision.isPresent(), out);
        long revision;
        if (from == null || from.isEmpty() || from.equals("0")) {
            revision = ownRevision.orElseGet(revisions::current);
            ListHandler.ListResult initial = ListHandler.list(kind, request.withoutPaging());
            for (Map<String, Object> object : initial.items()) {
                out.write(watch.encode(new ObjectStore.Change(revision, "ADDED", object)));
            }
        } else {
            revision = parseRevision(from);
            long compacted = ownRevision.isPresent() ? 0 : changes.compacted();
            if (revision < compacted) {
                StatusError expired = StatusError.expired("too old resource version: " + revision + " ("
                        + compacted + ")");
                write(out, Map.of("type", "ERROR", "object", expired.status()));
                return;
            }
        }
        out.flush();
        WatchFeeds.Feed feed = kind.store().visibleByNamespace()
                ? changes.feeds().join(kind, Math.min(changes.latest(), revision)) : null;
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        long nextBookmark = System.nanoTime() + BOOKMARK_EVERY.toNanos();
        try {
            while (System.nanoTime() < deadline && !changes.closed()) {
                WatchFeeds.Slice shared = feed == null ? null : feed.after(revision, BATCH);
                boolean more;
                if (shared != null) {
                    for (WatchFeeds.Entry entry : shared.entries()) {
                        watch.send(entry);
                    }
                    if (!shared.entries().isEmpty()) {
                        out.flush();
                    }
                    revision = shared.readUpTo();
                    more = shared.entries().size() == BATCH;
                } else {
                    more = watch.readLog(revision);
                    revision = watch.readUpTo;
                }
                if (more) {
                    continue;
                }
                if (bookmarks && System.nanoTime() > nextBookmark) {
                    bookmark(out, kind, request, revision);
                    out.flush();
                    nextBookmark = System.nanoTime() + BOOKMARK_EVERY.toNanos();
                }
                if (feed != null) {
                    feed.awaitAfter(revision, Duration.ofSeconds(1));
                } else if (ownRevision.isPresent()) {
                    // its own sequence: woken by the next change of the log, which most of its entries come with
                    changes.awaitAfter(changes.latest(), Duration.ofSeconds(1));
                } else {
                    changes.awaitAfter(revision, Duration.ofSeconds(1));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the client went away
        } finally {
            if (feed != null) {
                feed.leave();
            }
        }
    }

    /** One watch's stream: what it selects, in its version and format. */
    private final class Watch {
        private final ResourceKind kind;
        private final ApiRequest request;
        private final ObjectStore.Selector selector;
        private final boolean table;
        private final boolean ownSequence;
        private final ServletOutputStream out;
        /** Which encoding of a shared change this watch sends: the version, Table or not, and the Table's objects. */
        private final String form;
        private long readUpTo;

        Watch(ResourceKind kind, ApiRequest request, ObjectStore.Selector selector, boolean table, boolean ownSequence,
              ServletOutputStream out) {
            this.kind = kind;
            this.request = request;
            this.selector = selector;
            this.table = table;
            this.ownSequence = ownSequence;
            this.out = out;
            this.form = request.version() + (table ? "/table/" + request.parameter("includeObject") : "");
        }

        /** A change of the shared feed, when the caller may read it and the selectors select it. */
        void send(WatchFeeds.Entry entry) throws IOException {
            if (selects(entry.change.object()) && request.caller().mayRead(entry.namespace)) {
                out.write(entry.encoded(form, e -> encode(e.change)));
            }
        }

        /** Reads the log itself, as the caller may read it; true when it stopped at its limit. */
        boolean readLog(long revision) throws IOException {
            // every change up to this revision is committed and visible to the read below; a kind counting in its own
            // sequence says itself how far it read
            long committed = ownSequence ? revision : changes.latest();
            ObjectStore.Changes read = kind.store().changesAfter(revision, BATCH, request.caller());
            for (ObjectStore.Change change : read.changes()) {
                if (selects(change.object())) {
                    out.write(encode(change));
                }
            }
            if (!read.changes().isEmpty()) {
                out.flush();
            }
            readUpTo = read.more() ? read.readUpTo() : Math.max(revision, Math.max(read.readUpTo(), committed));
            return read.more();
        }

        private boolean selects(Map<String, Object> object) {
            return namespaceMatches(kind, request, object) && selector.matches(object);
        }

        private byte[] encode(ObjectStore.Change change) {
            Map<String, Object> inVersion = kind.inVersion(change.object(), request.version());
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("type", change.type());
            event.put("object", table ? tableOf(kind, inVersion, request) : inVersion);
            return line(event);
        }
    }

    private static boolean namespaceMatches(ResourceKind kind, ApiRequest request, Map<String, Object> object) {
        return !kind.namespaced() || request.namespace() == null
                || request.namespace().equals(Objects.namespace(object));
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
        out.write(line(event));
    }

    private byte[] line(Object event) {
        byte[] encoded = json.writeValueAsBytes(event);
        byte[] line = Arrays.copyOf(encoded, encoded.length + 1);
        line[encoded.length] = '\n';
        return line;
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
