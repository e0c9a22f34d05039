package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.Quantity;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A cursor over one mapping of a parsed document (YAML or JSON, as plain maps and lists) that
 * knows its path. Every accessor records the field as read, so whatever no decoder asked for is
 * reported as an unknown field; a value of the wrong type is an error at its exact path and reads
 * as absent, so decoding goes on and all errors of a document are found in one pass.
 *
 * <p>An explicit {@code null} reads as absent, as the Kubernetes API server treats it.
 */
final class FieldCursor {

    private final String path;
    private final Map<?, ?> fields;
    private final Findings findings;
    private final Set<String> read = new LinkedHashSet<>();

    private FieldCursor(String path, Map<?, ?> fields, Findings findings) {
        this.path = path;
        this.fields = fields;
        this.findings = findings;
        findings.register(this);
    }

    static FieldCursor root(Map<?, ?> document, Findings findings) {
        return new FieldCursor("", document, findings);
    }

    String path() {
        return path;
    }

    /** The mapping as parsed, for keeping it whole. */
    Map<?, ?> value() {
        return fields;
    }

    String child(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    static String index(String listPath, int i) {
        return listPath + "[" + i + "]";
    }

    Findings findings() {
        return findings;
    }

    boolean has(String field) {
        return fields.get(field) != null;
    }

    void error(String field, String message) {
        findings.error(child(field), message);
    }

    /** Marks fields as read without using them: they are normal in kubectl output and mean nothing here. */
    void skip(String... names) {
        read.addAll(Arrays.asList(names));
    }

    void skipAll() {
        fields.keySet().forEach(k -> read.add(String.valueOf(k)));
    }

    /**
     * Everything under this mapping that no decoder reads goes to the cluster as written: no field
     * here or below is unknown for being unread, whether it was opened as a node before or after
     * this call. Workload kinds carry pod and job spec fields that the platform passes through;
     * {@link KnownFields} tells which of them are unknown.
     */
    void passThrough() {
        skipAll();
        findings.passThrough(path);
    }

    /** A field the platform understands but does not act on gets a warning of its own wording. */
    void ignoreWithWarning(String field, String what, String platformDoes) {
        if (fields.containsKey(field)) {
            read.add(field);
            findings.warn(child(field), what, platformDoes);
        }
    }

    String string(String field) {
        Object value = take(field);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        typeError(field, "a string", value);
        return null;
    }

    /** Whether a field that must be there is; a missing one is an error named "required". */
    boolean require(String field) {
        if (has(field)) {
            return true;
        }
        read.add(field);
        error(field, "required");
        return false;
    }

    String requiredString(String field) {
        return require(field) ? string(field) : null;
    }

    /** A string in one of the {@link KubernetesNames} grammars; a name that breaks it is an error. */
    String name(String field, Function<String, Optional<String>> grammar) {
        String value = string(field);
        if (value != null) {
            grammar.apply(value).ifPresent(problem -> error(field, problem));
        }
        return value;
    }

    String requiredName(String field, Function<String, Optional<String>> grammar) {
        return require(field) ? name(field, grammar) : null;
    }

    Boolean bool(String field) {
        Object value = take(field);
        if (value == null || value instanceof Boolean) {
            return (Boolean) value;
        }
        typeError(field, "a boolean", value);
        return null;
    }

    /** An int32, as Kubernetes declares priorities and thresholds. */
    Integer int32(String field) {
        BigDecimal number = integer(field, Integer.MIN_VALUE, Integer.MAX_VALUE, "a 32-bit integer");
        return number == null ? null : number.intValueExact();
    }

    Long int64(String field) {
        BigDecimal number = integer(field, Long.MIN_VALUE, Long.MAX_VALUE, "a 64-bit integer");
        return number == null ? null : number.longValueExact();
    }

    private BigDecimal integer(String field, long min, long max, String what) {
        Object value = take(field);
        if (value == null) {
            return null;
        }
        BigDecimal number = wholeNumber(value);
        if (number == null) {
            typeError(field, "an integer", value);
            return null;
        }
        if (number.compareTo(BigDecimal.valueOf(min)) < 0 || number.compareTo(BigDecimal.valueOf(max)) > 0) {
            error(field, number.toPlainString() + " does not fit in " + what + " (" + min + " to " + max + ")");
            return null;
        }
        return number;
    }

    /**
     * A Kubernetes quantity written as a string ({@code 500m}) or as a YAML/JSON number
     * ({@code 32}), read by its text. Every quantity the platform reads must be non-negative
     * (Kueue's nominalQuota, borrowingLimit, lendingLimit, fairSharing.weight; pod requests).
     */
    Quantity quantity(String field) {
        Object value = take(field);
        return value == null ? null : quantityAt(child(field), value);
    }

    /**
     * A map of resource names to quantities (container requests and limits, pod overhead), in
     * document order; each entry's path is this map's path, a dot, and the resource name as
     * written ({@code resources.limits.google.com/tpu}), as for every map key. Names must be
     * qualified names; quantities non-negative.
     */
    Map<String, Quantity> quantityMap(String field) {
        Object value = take(field);
        Map<String, Quantity> quantities = new LinkedHashMap<>();
        if (value == null) {
            return quantities;
        }
        if (!(value instanceof Map<?, ?> map)) {
            typeError(field, "a map of resource names to quantities", value);
            return quantities;
        }
        map.forEach((k, v) -> {
            String entryPath = child(field) + "." + k;
            if (!(k instanceof String name)) {
                findings.error(entryPath, expectedFound("a resource name", k));
                return;
            }
            Optional<String> nameProblem = KubernetesNames.qualifiedNameProblem(name);
            if (nameProblem.isPresent()) {
                findings.error(entryPath, nameProblem.get());
                return;
            }
            Quantity quantity = v == null ? null : quantityAt(entryPath, v);
            if (quantity != null) {
                quantities.put(name, quantity);
            }
        });
        return quantities;
    }

    private Quantity quantityAt(String valuePath, Object value) {
        String text = value instanceof String s ? s : numberText(value);
        if (text == null) {
            findings.error(valuePath, expectedFound("a quantity (e.g. 32, 500m, 3Gi)", value));
            return null;
        }
        try {
            Quantity quantity = Quantity.parse(text);
            if (quantity.isNegative()) {
                findings.error(valuePath, "'" + text + "' is negative; must be greater than or equal to 0");
                return null;
            }
            return quantity;
        } catch (IllegalArgumentException e) {
            findings.error(valuePath, e.getMessage());
            return null;
        }
    }

    <E extends Enum<E>> E oneOf(String field, Class<E> values) {
        String name = oneOf(field, Arrays.stream(values.getEnumConstants()).map(Enum::name).toList());
        return name == null ? null : Enum.valueOf(values, name);
    }

    /** A string restricted to the given values; anything else is an error listing them. */
    String oneOf(String field, List<String> allowed) {
        String value = string(field);
        if (value != null && !allowed.contains(value)) {
            error(field, "unsupported value '" + value + "'; supported values: " + String.join(", ", allowed));
            return null;
        }
        return value;
    }

    String requiredOneOf(String field, List<String> allowed) {
        return require(field) ? oneOf(field, allowed) : null;
    }

    /** A nested mapping, or an empty one when absent or of the wrong type, for sections that are all optional. */
    FieldCursor objectOrEmpty(String field) {
        FieldCursor node = object(field);
        return node != null ? node : new FieldCursor(child(field), Map.of(), findings);
    }

    /** A nested mapping that must be there; null (and an error) when absent or of the wrong type. */
    FieldCursor requiredObject(String field) {
        return require(field) ? object(field) : null;
    }

    /** A nested mapping, or null when absent or of the wrong type. */
    FieldCursor object(String field) {
        Object value = take(field);
        if (value == null) {
            return null;
        }
        if (value instanceof Map<?, ?> map) {
            return new FieldCursor(child(field), map, findings);
        }
        typeError(field, "a map", value);
        return null;
    }

    /** A list of mappings; items of another type are errors at their index and are left out. */
    List<FieldCursor> objects(String field) {
        List<?> items = list(field);
        List<FieldCursor> nodes = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String itemPath = index(child(field), i);
            if (items.get(i) instanceof Map<?, ?> map) {
                nodes.add(new FieldCursor(itemPath, map, findings));
            } else {
                findings.error(itemPath, expectedFound("a map", items.get(i)));
            }
        }
        return nodes;
    }

    /** A list of strings; other items are errors at their index and are left out. */
    List<String> strings(String field) {
        List<?> items = list(field);
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof String s) {
                strings.add(s);
            } else {
                findings.error(index(child(field), i), expectedFound("a string", items.get(i)));
            }
        }
        return strings;
    }

    /** A map of strings to strings (labels, annotations, nodeLabels), in document order. */
    Map<String, String> stringMap(String field) {
        Object value = take(field);
        Map<String, String> strings = new LinkedHashMap<>();
        if (value == null) {
            return strings;
        }
        if (!(value instanceof Map<?, ?> map)) {
            typeError(field, "a map of strings", value);
            return strings;
        }
        map.forEach((k, v) -> {
            String entryPath = child(field) + "." + k;
            if (!(k instanceof String key)) {
                findings.error(entryPath, expectedFound("a string key", k));
            } else if (v instanceof String s) {
                strings.put(key, s);
            } else {
                findings.error(entryPath, expectedFound("a string", v));
            }
        });
        return strings;
    }

    /** The names a decoder asked for here, present or not: what this mapping is known to hold. */
    Set<String> readFields() {
        return read;
    }

    List<String> unreadFields() {
        return fields.keySet().stream().map(String::valueOf).filter(k -> !read.contains(k)).collect(Collectors.toList());
    }

    private List<?> list(String field) {
        Object value = take(field);
        if (value == null) {
            return List.of();
        }
        if (value instanceof List<?> list) {
            return list;
        }
        typeError(field, "a list", value);
        return List.of();
    }

    private Object take(String field) {
        read.add(field);
        return fields.get(field);
    }

    private void typeError(String field, String expected, Object found) {
        error(field, expectedFound(expected, found));
    }

    static String expectedFound(String expected, Object found) {
        return "expected " + expected + ", found " + describe(found);
    }

    /** How a parsed value is named in messages: its type, and its text when it is a scalar. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        } else if (value instanceof Map<?, ?>) {
            return "a map";
        } else if (value instanceof List<?>) {
            return "a list";
        } else if (value instanceof String s) {
            return "the string '" + s + "'";
        } else if (value instanceof Boolean b) {
            return "the boolean " + b;
        } else if (value instanceof Number n) {
            return "the number " + n;
        }
        return "a " + value.getClass().getSimpleName().toLowerCase(Locale.ROOT) + " value";
    }

    /** The text of an integral or decimal number as parsed; null for other values (and for inf/NaN). */
    private static String numberText(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof BigInteger
                || value instanceof BigDecimal) {
            return value.toString();
        }
        return null;
    }

    private static BigDecimal wholeNumber(Object value) {
        String text = numberText(value);
        BigDecimal number = text == null ? null : new BigDecimal(text);
        if (number == null || number.stripTrailingZeros().scale() > 0) {
            return null;
        }
        return number;
    }
}
