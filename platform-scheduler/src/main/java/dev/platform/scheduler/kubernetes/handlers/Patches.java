package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.Objects;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The patch formats of kube-apiserver: JSON merge patch (RFC 7386), JSON patch (RFC 6902), strategic merge patch
 * (lists of the built-in kinds merged by their keys, with its {@code $patch}, {@code $setElementOrder} and
 * {@code $retainKeys} directives) and the merge that server-side apply makes of an applied configuration.
 */
final class Patches {

    /** The lists Kubernetes' built-in types merge by a key under a strategic merge patch, by field name. */
    private static final Map<String, String> MERGE_KEYS = Map.ofEntries(
            Map.entry("containers", "name"), Map.entry("initContainers", "name"),
            Map.entry("ephemeralContainers", "name"), Map.entry("volumes", "name"), Map.entry("env", "name"),
            Map.entry("volumeMounts", "mountPath"), Map.entry("volumeDevices", "devicePath"),
            Map.entry("ports", "containerPort"), Map.entry("imagePullSecrets", "name"),
            Map.entry("hostAliases", "ip"), Map.entry("conditions", "type"), Map.entry("ownerReferences", "uid"),
            Map.entry("resourceClaims", "name"));
    private static final Set<String> PRIMITIVE_LIST_FIELDS = Set.of("finalizers");

    private Patches() {
    }

    /** RFC 7386: maps merge, null deletes, anything else replaces. */
    @SuppressWarnings("unchecked")
    static Object mergePatch(Object target, Object patch) {
        if (!(patch instanceof Map<?, ?> patchMap)) {
            return Objects.copy(patch);
        }
        Map<String, Object> result = target instanceof Map<?, ?> t ? new LinkedHashMap<>((Map<String, Object>) t)
                : new LinkedHashMap<>();
        ((Map<String, Object>) patchMap).forEach((key, value) -> {
            if (value == null) {
                result.remove(key);
            } else {
                result.put(key, mergePatch(result.get(key), value));
            }
        });
        return result;
    }

    /** RFC 6902 operations over the object. */
    static Object jsonPatch(Object target, List<?> operations) {
        Object document = Objects.copy(target);
        for (Object raw : operations) {
            if (!(raw instanceof Map<?, ?> op)) {
                throw StatusError.badRequest("a JSON patch is a list of operation objects");
            }
            String kind = String.valueOf(op.get("op"));
            String path = String.valueOf(op.get("path"));
            switch (kind) {
                case "add" -> document = add(document, pointer(path), Objects.copy(op.get("value")));
                case "remove" -> document = remove(document, pointer(path));
                case "replace" -> document = add(remove(document, pointer(path)), pointer(path),
                        Objects.copy(op.get("value")));
                case "test" -> {
                    if (!java.util.Objects.equals(get(document, pointer(path)), op.get("value"))) {
                        throw StatusError.unprocessable("the server rejected our request due to an error in our"
                                + " request: testing value " + path + " failed");
                    }
                }
                case "move" -> {
                    Object value = get(document, pointer(String.valueOf(op.get("from"))));
                    document = add(remove(document, pointer(String.valueOf(op.get("from")))), pointer(path), value);
                }
                case "copy" -> document = add(document, pointer(path),
                        Objects.copy(get(document, pointer(String.valueOf(op.get("from"))))));
                default -> throw StatusError.badRequest("unexpected kind of JSON patch operation: \"" + kind + "\"");
            }
        }
        return document;
    }

    /** Kubernetes' strategic merge patch, for the built-in kinds. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> strategicMergePatch(Map<String, Object> target, Map<String, Object> patch) {
        Map<String, Object> result = new LinkedHashMap<>(target);
        Object retainKeys = patch.get("$retainKeys");
        for (Map.Entry<String, Object> entry : patch.entrySet()) {
            String key = entry.getKey();
            Object value = entry.getValue();
            if (key.startsWith("$setElementOrder/") || key.equals("$retainKeys") || key.equals("$patch")) {
                continue;
            }
            if (key.startsWith("$deleteFromPrimitiveList/")) {
                String field = key.substring("$deleteFromPrimitiveList/".length());
                if (result.get(field) instanceof List<?> list && value instanceof List<?> gone) {
                    List<Object> kept = new ArrayList<>(list);
                    kept.removeAll(gone);
                    result.put(field, kept);
                }
                continue;
            }
            if (value == null) {
                result.remove(key);
            } else if (value instanceof Map<?, ?> m && "delete".equals(m.get("$patch"))) {
                result.remove(key);
            } else if (value instanceof Map<?, ?> m && "replace".equals(m.get("$patch"))) {
                Map<String, Object> replaced = new LinkedHashMap<>((Map<String, Object>) m);
                replaced.remove("$patch");
                result.put(key, replaced);
            } else if (value instanceof Map<?, ?> m && result.get(key) instanceof Map<?, ?> current) {
                result.put(key, strategicMergePatch((Map<String, Object>) current, (Map<String, Object>) m));
            } else if (value instanceof List<?> items && MERGE_KEYS.containsKey(key)
                    && result.get(key) instanceof List<?> current) {
                result.put(key, mergeList(current, items, MERGE_KEYS.get(key),
                        patch.get("$setElementOrder/" + key)));
            } else if (value instanceof List<?> items && PRIMITIVE_LIST_FIELDS.contains(key)
                    && result.get(key) instanceof List<?> current) {
                List<Object> merged = new ArrayList<>(current);
                items.stream().filter(i -> !merged.contains(i)).forEach(merged::add);
                result.put(key, merged);
            } else {
                result.put(key, Objects.copy(value));
            }
        }
        if (retainKeys instanceof List<?> keep) {
            result.keySet().removeIf(k -> !keep.contains(k));
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> mergeList(List<?> current, List<?> patch, String mergeKey, Object order) {
        List<Object> merged = new ArrayList<>(current);
        for (Object item : patch) {
            if (!(item instanceof Map<?, ?> patchItem) || !patchItem.containsKey(mergeKey)) {
                merged.add(Objects.copy(item));
                continue;
            }
            Object key = patchItem.get(mergeKey);
            int at = indexOf(merged, mergeKey, key);
            if ("delete".equals(patchItem.get("$patch"))) {
                if (at >= 0) {
                    merged.remove(at);
                }
            } else if (at >= 0) {
                merged.set(at, strategicMergePatch((Map<String, Object>) merged.get(at),
                        (Map<String, Object>) patchItem));
            } else {
                Map<String, Object> added = new LinkedHashMap<>((Map<String, Object>) patchItem);
                added.remove("$patch");
                merged.add(added);
            }
        }
        if (order instanceof List<?> keys) {
            List<Object> ordered = new ArrayList<>();
            for (Object k : keys) {
                Object orderKey = k instanceof Map<?, ?> m ? m.get(mergeKey) : k;
                int at = indexOf(merged, mergeKey, orderKey);
                if (at >= 0) {
                    ordered.add(merged.get(at));
                }
            }
            merged.stream().filter(i -> !ordered.contains(i)).forEach(ordered::add);
            return ordered;
        }
        return merged;
    }

    private static int indexOf(List<Object> items, String mergeKey, Object key) {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof Map<?, ?> m && String.valueOf(key).equals(String.valueOf(m.get(mergeKey)))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Server-side apply's merge of an applied configuration into the live object: every field the configuration
     * sets takes its value (lists replaced as a whole, maps merged), fields it leaves out keep theirs.
     */
    @SuppressWarnings("unchecked")
    static Map<String, Object> applyConfiguration(Map<String, Object> live, Map<String, Object> applied) {
        Map<String, Object> result = new LinkedHashMap<>(live);
        applied.forEach((key, value) -> {
            if (value instanceof Map<?, ?> m && result.get(key) instanceof Map<?, ?> current) {
                result.put(key, applyConfiguration((Map<String, Object>) current, (Map<String, Object>) m));
            } else {
                result.put(key, Objects.copy(value));
            }
        });
        return result;
    }

    // ---- JSON pointers (RFC 6901) ---------------------------------------------------------------

    private static List<String> pointer(String path) {
        if (path.isEmpty()) {
            return List.of();
        }
        if (!path.startsWith("/")) {
            throw StatusError.badRequest("JSON pointer \"" + path + "\" does not start with /");
        }
        List<String> tokens = new ArrayList<>();
        for (String token : path.substring(1).split("/", -1)) {
            tokens.add(token.replace("~1", "/").replace("~0", "~"));
        }
        return tokens;
    }

    private static Object get(Object document, List<String> path) {
        Object current = document;
        for (String token : path) {
            if (current instanceof Map<?, ?> map && map.containsKey(token)) {
                current = map.get(token);
            } else if (current instanceof List<?> list && token.matches("\\d+") && Integer.parseInt(token) < list.size()) {
                current = list.get(Integer.parseInt(token));
            } else {
                throw StatusError.unprocessable("the server rejected our request due to an error in our request:"
                        + " doc is missing path: \"/" + String.join("/", path) + "\"");
            }
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private static Object add(Object document, List<String> path, Object value) {
        if (path.isEmpty()) {
            return value;
        }
        Object parent = get(document, path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).put(last, value);
        } else if (parent instanceof List<?> list) {
            List<Object> items = (List<Object>) list;
            if (last.equals("-")) {
                items.add(value);
            } else {
                items.add(Integer.parseInt(last), value);
            }
        }
        return document;
    }

    @SuppressWarnings("unchecked")
    private static Object remove(Object document, List<String> path) {
        get(document, path);
        Object parent = get(document, path.subList(0, path.size() - 1));
        String last = path.get(path.size() - 1);
        if (parent instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).remove(last);
        } else if (parent instanceof List<?> list) {
            ((List<Object>) list).remove(Integer.parseInt(last));
        }
        return document;
    }
}
