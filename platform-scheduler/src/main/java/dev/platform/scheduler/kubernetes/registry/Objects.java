package dev.platform.scheduler.kubernetes.registry;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reading and shaping objects held as JSON trees (maps, lists and values). */
public final class Objects {

    private Objects() {
    }

    /** The map at {@code key} of {@code object}; an empty one when absent or not a map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Map<String, Object> object, String key) {
        return object != null && object.get(key) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** The map at {@code key}, created (and kept) when absent. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> mapIn(Map<String, Object> object, String key) {
        Object value = object.get(key);
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) m);
            object.put(key, copy);
            return copy;
        }
        Map<String, Object> created = new LinkedHashMap<>();
        object.put(key, created);
        return created;
    }

    public static Map<String, Object> metadata(Map<String, Object> object) {
        return map(object, "metadata");
    }

    public static String name(Map<String, Object> object) {
        return (String) metadata(object).get("name");
    }

    public static String namespace(Map<String, Object> object) {
        return (String) metadata(object).get("namespace");
    }

    /** A deep copy, so a stored or cached tree is never changed by a caller. */
    @SuppressWarnings("unchecked")
    public static <T> T copy(T value) {
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put(String.valueOf(k), copy(v)));
            return (T) copy;
        }
        if (value instanceof List<?> l) {
            List<Object> copy = new ArrayList<>(l.size());
            l.forEach(v -> copy.add(copy(v)));
            return (T) copy;
        }
        return value;
    }

    /**
     * {@code base} with {@code over} laid on it: maps merge key by key, any other value of {@code over} (a list
     * included) replaces the one in {@code base}. Used to keep what an author wrote over the platform's defaults.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> overlay(Map<String, Object> base, Map<String, Object> over) {
        Map<String, Object> merged = new LinkedHashMap<>(base);
        over.forEach((key, value) -> {
            Object current = merged.get(key);
            if (value instanceof Map<?, ?> overMap && current instanceof Map<?, ?> baseMap) {
                merged.put(key, overlay((Map<String, Object>) baseMap, (Map<String, Object>) overMap));
            } else {
                merged.put(key, copy(value));
            }
        });
        return merged;
    }

    /** A time as Kubernetes writes it in metadata: RFC 3339 in UTC, to the second. */
    public static String timestamp(Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /**
     * {@code metadata} with the server's fields set, in the order of Kubernetes' ObjectMeta: name, namespace, uid,
     * resourceVersion, generation, creationTimestamp, then labels, annotations and the rest as written.
     */
    public static Map<String, Object> withServerMetadata(Map<String, Object> metadata, String uid, long resourceVersion,
                                                         Long generation, Instant createdAt) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", metadata.get("name"));
        if (metadata.get("namespace") != null) {
            out.put("namespace", metadata.get("namespace"));
        }
        out.put("uid", uid);
        out.put("resourceVersion", String.valueOf(resourceVersion));
        if (generation != null) {
            out.put("generation", generation);
        }
        out.put("creationTimestamp", timestamp(createdAt));
        metadata.forEach((key, value) -> out.putIfAbsent(key, value));
        return out;
    }
}
