package dev.platform.api.manifest.decode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields of the workload kinds, type by type ({@code workload-fields.txt}), and the check of a
 * document against them: every key that its type does not declare is an unknown field, found at any
 * depth. The workload decoders read only what scheduling needs and pass the rest to the cluster, so what
 * they read cannot tell a typo from a field of the pod spec; these types can.
 */
final class KnownFields {

    /** A field's type: a value not checked further. */
    private static final String VALUE = "";
    /** A field's type: a map of keys of the user's choosing, or a type not checked here. */
    private static final String OPEN = "*";

    static final KnownFields WORKLOADS = load("workload-fields.txt");

    /** Per type, its fields in declared order, each with its type ({@link #VALUE}, {@link #OPEN} or a type name). */
    private final Map<String, Map<String, String>> types;

    private KnownFields(Map<String, Map<String, String>> types) {
        this.types = types;
    }

    /** The field names of {@code type}, in declared order. */
    Set<String> fieldsOf(String type) {
        return fields(type).keySet();
    }

    /** Records, in document order, each field of {@code object} and below that {@code type} does not declare. */
    void check(Map<?, ?> object, String type, String path, Findings findings) {
        Map<String, String> fields = fields(type);
        object.forEach((key, value) -> {
            String name = String.valueOf(key);
            String child = path.isEmpty() ? name : path + "." + name;
            String fieldType = fields.get(name);
            if (fieldType == null) {
                findings.unknownField(child, name, fields.keySet());
            } else if (!fieldType.equals(VALUE) && !fieldType.equals(OPEN)) {
                checkValue(value, fieldType, child, findings);
            }
        });
    }

    /** An object of the type, or a list of them; a value of another shape is the decoders' or the cluster's to refuse. */
    private void checkValue(Object value, String type, String path, Findings findings) {
        if (value instanceof Map<?, ?> object) {
            check(object, type, path, findings);
        } else if (value instanceof List<?> items) {
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i) instanceof Map<?, ?> item) {
                    check(item, type, FieldCursor.index(path, i), findings);
                }
            }
        }
    }

    private Map<String, String> fields(String type) {
        Map<String, String> fields = types.get(type);
        if (fields == null) {
            throw new IllegalArgumentException("no such type in the workload fields: " + type);
        }
        return fields;
    }

    /** Reads a fields file; a type named but not declared makes it unusable, so loading fails. */
    static KnownFields parse(String text) {
        Map<String, Map<String, String>> types = new LinkedHashMap<>();
        Map<String, String> current = null;
        for (String line : text.split("\n")) {
            String content = line.strip();
            if (content.isEmpty() || content.startsWith("#")) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                int colon = content.indexOf(':');
                if (colon < 1) {
                    throw new IllegalStateException("a type line is 'Type: fields', found: " + line);
                }
                current = new LinkedHashMap<>();
                if (types.put(content.substring(0, colon), current) != null) {
                    throw new IllegalStateException("type declared twice: " + content.substring(0, colon));
                }
                content = content.substring(colon + 1).strip();
            } else if (current == null) {
                throw new IllegalStateException("a continuation line before any type: " + line);
            }
            for (String token : content.split("\\s+")) {
                if (token.isEmpty()) {
                    continue;
                }
                int colon = token.indexOf(':');
                String field = colon < 0 ? token : token.substring(0, colon);
                String type = colon < 0 ? VALUE : token.substring(colon + 1);
                if (current.put(field, type) != null) {
                    throw new IllegalStateException("field declared twice: " + field);
                }
            }
        }
        types.forEach((name, fields) -> fields.forEach((field, type) -> {
            if (!type.equals(VALUE) && !type.equals(OPEN) && !types.containsKey(type)) {
                throw new IllegalStateException(name + "." + field + " names the type " + type
                        + ", which is not declared");
            }
        }));
        return new KnownFields(types);
    }

    private static KnownFields load(String resource) {
        try (InputStream in = KnownFields.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("resource " + resource + " is missing");
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }
}
