package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.storage.ManagedFieldsStore;
import dev.platform.scheduler.kubernetes.storage.ManagedFieldsStore.Entry;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Server-side apply's field managers: which manager owns which fields of an object. An Apply takes the fields of its
 * configuration and is refused with a conflict where another manager owns a field it would change, unless forced;
 * any other write gives the fields it changed to its manager. Lists are owned whole; status is not owned.
 * A field is a path of keys joined by dots, a dot inside a key (labels and annotations have them:
 * {@code kueue.x-k8s.io/queue-name}) written {@code \.}; a conflict names it as kube-apiserver does, dots unescaped.
 */
final class FieldManagers {

    private final ManagedFieldsStore store;
    private final Clock clock;

    FieldManagers(ManagedFieldsStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The manager of a write: the {@code fieldManager} parameter, else the client's name, as kube-apiserver. */
    static String managerOf(ApiRequest request, String userAgent) {
        String manager = request.parameter("fieldManager");
        if (manager != null && !manager.isEmpty()) {
            return manager;
        }
        if (userAgent == null || userAgent.isBlank()) {
            return "unknown";
        }
        String name = userAgent.split("[/ ]")[0];
        return name.length() > 128 ? name.substring(0, 128) : name;
    }

    /** Refuses an Apply that would change fields other managers own, unless {@code force}; kube-apiserver's words. */
    void checkApply(ResourceKind kind, ApiRequest request, String manager, Map<String, Object> live,
                    Map<String, Object> applied) {
        if (ApiRequest.isTrue(request.parameter("force"))) {
            return;
        }
        List<Entry> entries = entries(kind, live);
        List<StatusError.Cause> conflicts = new ArrayList<>();
        for (String field : fields(applied)) {
            for (Entry entry : entries) {
                if (!entry.manager().equals(manager) && entry.fields().contains(field)
                        && !java.util.Objects.equals(valueAt(live, field), valueAt(applied, field))) {
                    conflicts.add(new StatusError.Cause("FieldManagerConflict", "conflict with \"" + entry.manager()
                            + "\" using " + entry.apiVersion(),
                            "." + String.join(".", segments(field))));
                }
            }
        }
        if (!conflicts.isEmpty()) {
            throw StatusError.applyConflicts(kind, request.name(), conflicts);
        }
    }

    /** Records the write: an Apply's configuration, or what an update changed between {@code before} and {@code after}. */
    Map<String, Object> record(ResourceKind kind, String manager, String operation, String apiVersion,
                               Map<String, Object> before, Map<String, Object> applied, Map<String, Object> after) {
        List<Entry> entries = new ArrayList<>(before == null ? List.of() : entries(kind, before));
        Set<String> taken = operation.equals("Apply") ? fields(applied) : changed(before, after);
        List<Entry> next = new ArrayList<>();
        Set<String> mine = new TreeSet<>(taken);
        for (Entry entry : entries) {
            if (entry.manager().equals(manager) && entry.operation().equals(operation)) {
                if (operation.equals("Update")) {
                    mine.addAll(entry.fields());
                }
                continue;
            }
            Set<String> kept = new TreeSet<>(entry.fields());
            for (String field : taken) {
                if (before == null || !java.util.Objects.equals(valueAt(before, field), valueAt(after, field))) {
                    kept.remove(field);
                }
            }
            kept.retainAll(fields(after));
            if (!kept.isEmpty()) {
                next.add(new Entry(entry.manager(), entry.operation(), entry.apiVersion(), entry.time(), kept));
            }
        }
        mine.retainAll(fields(after));
        if (!mine.isEmpty() || operation.equals("Apply")) {
            next.add(new Entry(manager, operation, apiVersion, clock.instant(), mine));
        }
        Map<String, Object> metadata = Objects.metadata(after);
        store.save(kind.kind(), (String) metadata.get("namespace"), (String) metadata.get("name"),
                String.valueOf(metadata.get("uid")), next);
        return withManagedFields(after, next);
    }

    void forget(ResourceKind kind, String namespace, String name) {
        store.delete(kind.kind(), namespace, name);
    }

    /** The object with its managedFields, as a read shows it. */
    Map<String, Object> shown(ResourceKind kind, Map<String, Object> object) {
        return withManagedFields(object, entries(kind, object));
    }

    private List<Entry> entries(ResourceKind kind, Map<String, Object> object) {
        Map<String, Object> metadata = Objects.metadata(object);
        return store.find(kind.kind(), (String) metadata.get("namespace"), (String) metadata.get("name"),
                String.valueOf(metadata.get("uid")));
    }

    private static Map<String, Object> withManagedFields(Map<String, Object> object, List<Entry> entries) {
        if (entries.isEmpty()) {
            return object;
        }
        Map<String, Object> shown = new LinkedHashMap<>(object);
        Map<String, Object> metadata = new LinkedHashMap<>(Objects.metadata(object));
        metadata.put("managedFields", entries.stream().map(e -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("manager", e.manager());
            entry.put("operation", e.operation());
            entry.put("apiVersion", e.apiVersion());
            entry.put("time", Objects.timestamp(e.time()));
            entry.put("fieldsType", "FieldsV1");
            entry.put("fieldsV1", fieldsV1(e.fields()));
            return entry;
        }).toList());
        shown.put("metadata", metadata);
        return shown;
    }

    /** FieldsV1: the owned paths as a tree of {@code f:<name>} keys. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> fieldsV1(Set<String> fields) {
        Map<String, Object> tree = new LinkedHashMap<>();
        for (String field : fields) {
            Map<String, Object> node = tree;
            for (String part : segments(field)) {
                node = (Map<String, Object>) node.computeIfAbsent("f:" + part, k -> new LinkedHashMap<>());
            }
        }
        return tree;
    }

    /** The paths of an object's leaves that a manager may own: metadata's labels and annotations, and all but status. */
    static Set<String> fields(Map<String, Object> object) {
        Set<String> fields = new LinkedHashSet<>();
        if (object == null) {
            return fields;
        }
        object.forEach((key, value) -> {
            switch (key) {
                case "apiVersion", "kind", "status" -> {
                }
                case "metadata" -> {
                    Map<String, Object> metadata = Objects.metadata(object);
                    for (String owned : List.of("labels", "annotations")) {
                        if (metadata.get(owned) instanceof Map<?, ?>) {
                            collect("." + "metadata." + owned, Objects.map(metadata, owned), fields);
                        }
                    }
                }
                default -> collect("." + key, value, fields);
            }
        });
        return fields;
    }

    @SuppressWarnings("unchecked")
    private static void collect(String path, Object value, Set<String> fields) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            ((Map<String, Object>) map).forEach((k, v) -> collect(path + "." + k.replace(".", "\\."), v, fields));
        } else {
            fields.add(path);
        }
    }

    private static Set<String> changed(Map<String, Object> before, Map<String, Object> after) {
        Set<String> changed = new TreeSet<>();
        for (String field : fields(after)) {
            if (before == null || !java.util.Objects.equals(valueAt(before, field), valueAt(after, field))) {
                changed.add(field);
            }
        }
        return changed;
    }

    static Object valueAt(Map<String, Object> object, String path) {
        Object current = object;
        for (String part : segments(path)) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(part);
        }
        return current;
    }

    /** The keys of a field's path. */
    static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        for (String part : path.substring(1).split("(?<!\\\\)\\.")) {
            segments.add(part.replace("\\.", "."));
        }
        return segments;
    }
}
