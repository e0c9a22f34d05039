package dev.platform.scheduler.kubernetes.storage;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.config.AppliedObjects;
import dev.platform.scheduler.config.ApplyResult;
import dev.platform.scheduler.config.ConfigurationService;
import dev.platform.scheduler.config.ManifestApplication;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * A configuration kind (ResourceFlavor, Cohort, ClusterQueue, LocalQueue, the priority classes, Namespace, Team) as
 * Kubernetes objects: read from the platform's typed configuration with what its author wrote laid over it (so a
 * file applied again reads back as written), written through the same all-or-nothing apply as
 * {@code POST /api/v1/manifests}.
 */
public final class ConfigObjectStore implements ObjectStore {

    /** Reads the kind's objects, rendered in the preferred version with status, as the caller may see them. */
    public interface Views {
        List<Map<String, Object>> list(Caller caller);

        Optional<Map<String, Object>> get(ObjectKey key, Caller caller);
    }

    private final Kind kind;
    private final Views views;
    private final AppliedObjects applied;
    private final ManifestParser parser;
    private final ManifestApplication application;
    private final ConfigurationService configuration;
    private final TransactionTemplate transactions;
    private final JsonMapper json;
    private final Function<Map<String, Object>, Map<String, Object>> toPreferredVersion;

    public ConfigObjectStore(Kind kind, Views views, ConfigStoreDependencies dependencies,
                             Function<Map<String, Object>, Map<String, Object>> toPreferredVersion) {
        this.kind = kind;
        this.views = views;
        this.applied = dependencies.applied();
        this.parser = dependencies.parser();
        this.application = dependencies.application();
        this.configuration = dependencies.configuration();
        this.transactions = dependencies.transactions();
        this.json = dependencies.json();
        this.toPreferredVersion = toPreferredVersion;
    }

    /** What every configuration kind's store is made with. */
    public record ConfigStoreDependencies(AppliedObjects applied, ManifestParser parser, ManifestApplication application,
                                          ConfigurationService configuration, TransactionTemplate transactions,
                                          JsonMapper json, Clock clock) {
    }

    @Override
    public Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
        ObjectKey key = new ObjectKey(kind.namespaced() ? namespace : null, name);
        return views.get(key, caller).map(view -> {
            Optional<AppliedObjects.Applied> stored = applied.find(kind, key);
            long revision = stored.map(AppliedObjects.Applied::revision)
                    .orElseGet(() -> applied.revisions(kind).getOrDefault(key, 0L));
            return withApplied(view, key, stored, revision);
        });
    }

    @Override
    public Page list(ListQuery query, Caller caller) {
        Map<ObjectKey, AppliedObjects.Applied> all = applied.all(kind);
        Map<ObjectKey, Long> revisions = applied.revisions(kind);
        List<Map<String, Object>> items = new ArrayList<>();
        List<Map<String, Object>> views = new ArrayList<>(this.views.list(caller));
        views.sort(Comparator.comparing(ConfigObjectStore::keyOf));
        for (Map<String, Object> view : views) {
            ObjectStore.Key k = keyOf(view);
            if (query.namespace() != null && !query.namespace().equals(k.namespace())) {
                continue;
            }
            if (query.after() != null && k.compareTo(query.after()) <= 0) {
                continue;
            }
            ObjectKey key = new ObjectKey(k.namespace().isEmpty() ? null : k.namespace(), k.name());
            Map<String, Object> object = withApplied(view, key, Optional.ofNullable(all.get(key)),
                    revisions.getOrDefault(key, 0L));
            if (!query.selector().matches(object)) {
                continue;
            }
            if (query.limit() > 0 && items.size() == query.limit()) {
                return new Page(items, true);
            }
            items.add(object);
        }
        return new Page(items, false);
    }

    @Override
    public Written create(Map<String, Object> object, WriteOptions options, Caller caller) {
        return write(object, options, caller, true);
    }

    @Override
    public Written update(Map<String, Object> object, WriteOptions options, Caller caller) {
        return write(object, options, caller, false);
    }

    private Written write(Map<String, Object> object, WriteOptions options, Caller caller, boolean create) {
        byte[] body = json.writeValueAsBytes(object);
        List<DecodedDocument> documents = parser.parse(body, ManifestParser.Format.JSON, options.fieldValidation());
        ObjectKey key = new ObjectKey(kind.namespaced() ? Objects.namespace(object) : null, Objects.name(object));
        List<ApplyResult> results = transactions.execute(status -> {
            configuration.lockChanges();
            boolean exists = views.get(key, caller).isPresent();
            if (create && exists) {
                throw WriteRefusal.alreadyExists();
            }
            if (!create && !exists) {
                throw WriteRefusal.notFound();
            }
            return application.apply(documents, options.dryRun(), caller.name());
        });
        List<String> warnings = results.stream().flatMap(r -> r.warnings().stream()).toList();
        if (options.dryRun()) {
            Map<String, Object> answer = Objects.copy(object);
            Map<String, Object> metadata = Objects.map(answer, "metadata");
            answer.put("metadata", Objects.withServerMetadata(metadata, UUID.randomUUID().toString(), 0, 1L,
                    java.time.Instant.now()));
            return new Written(answer, warnings);
        }
        return new Written(get(key.namespace(), key.name(), caller).orElseThrow(), warnings);
    }

    @Override
    public Map<String, Object> delete(String namespace, String name, WriteOptions options, Caller caller) {
        ObjectKey key = new ObjectKey(kind.namespaced() ? namespace : null, name);
        Map<String, Object> last = get(namespace, name, caller).orElseThrow(WriteRefusal::notFound);
        if (!options.dryRun()) {
            configuration.delete(kind, key, caller.name());
        }
        return last;
    }

    @Override
    public Changes changesAfter(long revision, int limit, Caller caller) {
        List<AppliedObjects.Change> log = applied.changesAfter(kind, revision, limit);
        List<Change> changes = new ArrayList<>();
        for (AppliedObjects.Change change : log) {
            ObjectKey key = change.key();
            if (change.action().equals("deleted")) {
                Map<String, Object> metadata = new java.util.LinkedHashMap<>();
                metadata.put("name", key.name());
                if (key.namespace() != null) {
                    metadata.put("namespace", key.namespace());
                }
                metadata.put("resourceVersion", String.valueOf(change.revision()));
                Map<String, Object> gone = new java.util.LinkedHashMap<>();
                gone.put("apiVersion", "");
                gone.put("kind", kind.manifestName());
                gone.put("metadata", metadata);
                changes.add(new Change(change.revision(), "DELETED", gone));
            } else {
                views.get(key, caller).map(view -> withApplied(view, key, applied.find(kind, key), change.revision()))
                        .ifPresent(object -> changes.add(new Change(change.revision(),
                                change.action().equals("created") ? "ADDED" : "MODIFIED", object)));
            }
        }
        return new Changes(changes, log.isEmpty() ? revision : log.get(log.size() - 1).revision(),
                log.size() == limit);
    }

    /**
     * The view (typed configuration with defaults and status) with what its author wrote laid over it, in the
     * preferred version, and the server's metadata.
     */
    private Map<String, Object> withApplied(Map<String, Object> view, ObjectKey key,
                                            Optional<AppliedObjects.Applied> stored, long revision) {
        Map<String, Object> object = view;
        Map<String, Object> source = stored.map(AppliedObjects.Applied::source).orElse(Map.of());
        if (!source.isEmpty()) {
            Map<String, Object> written = toPreferredVersion.apply(Objects.copy(source));
            written.remove("apiVersion");
            written.remove("kind");
            object = Objects.overlay(view, written);
        }
        Map<String, Object> metadata = Objects.map(object, "metadata");
        String uid = stored.map(a -> a.uid().toString()).orElse(AppliedObjects.uidOf(kind, key).toString());
        object.put("metadata", Objects.withServerMetadata(metadata, uid, revision,
                stored.map(AppliedObjects.Applied::generation).orElse(1L),
                stored.map(AppliedObjects.Applied::createdAt).orElse(null)));
        return withTransitionTimes(object);
    }

    /**
     * A Kubernetes condition says when it last changed (client-java's V1Condition refuses one that does not); the
     * platform does not record when a configuration object's conditions changed, so one without says the object's
     * creation.
     */
    private static Map<String, Object> withTransitionTimes(Map<String, Object> object) {
        Object created = Objects.metadata(object).get("creationTimestamp");
        if (created == null || !(object.get("status") instanceof Map<?, ?>)
                || !(Objects.map(object, "status").get("conditions") instanceof List<?> conditions)) {
            return object;
        }
        List<Map<String, Object>> timed = new ArrayList<>();
        for (Object condition : conditions) {
            @SuppressWarnings("unchecked")
            Map<String, Object> copy = new java.util.LinkedHashMap<>((Map<String, Object>) condition);
            copy.putIfAbsent("lastTransitionTime", created);
            timed.add(copy);
        }
        Map<String, Object> status = new java.util.LinkedHashMap<>(Objects.map(object, "status"));
        status.put("conditions", timed);
        object.put("status", status);
        return object;
    }

    private static ObjectStore.Key keyOf(Map<String, Object> object) {
        String namespace = Objects.namespace(object);
        return new ObjectStore.Key(namespace == null ? "" : namespace, Objects.name(object));
    }
}
