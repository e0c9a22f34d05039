package dev.platform.scheduler.kubernetes.registry;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Building OpenAPI v3 schemas of the served kinds, with the descriptions {@code kubectl explain} prints. Objects are
 * written inline, as a CustomResourceDefinition's schema is; only ObjectMeta is a reference to the one component
 * every group version's document carries.
 */
public final class Schemas {

    private static final String OBJECT_META_REF = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

    private Schemas() {
    }

    /** The same schema in every version a kind is served in. */
    public static Function<String, Map<String, Object>> inEveryVersion(Map<String, Object> schema) {
        return version -> schema;
    }

    /** A kind's object: apiVersion, kind, metadata and the given top-level fields (spec, status, value...). */
    public static Map<String, Object> kind(String description, Map<String, Object> fields) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("apiVersion", string("APIVersion defines the versioned schema of this representation of an"
                + " object."));
        properties.put("kind", string("Kind is a string value representing the REST resource this object"
                + " represents."));
        properties.put("metadata", objectMeta("Standard object's metadata."));
        properties.putAll(fields);
        return object(description, properties);
    }

    /** ObjectMeta, for an object's metadata and the metadata of the templates it holds. */
    public static Map<String, Object> objectMeta(String description) {
        return Map.of("allOf", List.of(Map.of("$ref", OBJECT_META_REF)), "description", description);
    }

    /** Field names and their schemas, in the order given: {@code fields("name", string(...), "count", ...)}. */
    public static Map<String, Object> fields(Object... nameThenSchema) {
        if (nameThenSchema.length % 2 != 0) {
            throw new IllegalArgumentException("fields are given as name, schema pairs");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < nameThenSchema.length; i += 2) {
            if (fields.put((String) nameThenSchema[i], nameThenSchema[i + 1]) != null) {
                throw new IllegalArgumentException("field given twice: " + nameThenSchema[i]);
            }
        }
        return fields;
    }

    public static Map<String, Object> object(String description, Map<String, Object> properties) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("description", description);
        schema.put("properties", properties);
        return schema;
    }

    /** An object whose fields {@code required} must be given ({@code kubectl explain} marks them). */
    public static Map<String, Object> object(String description, Map<String, Object> properties,
                                             String... required) {
        Map<String, Object> schema = object(description, properties);
        for (String field : required) {
            if (!properties.containsKey(field)) {
                throw new IllegalArgumentException("required field " + field + " is not among the properties");
            }
        }
        schema.put("required", List.of(required));
        return schema;
    }

    /** An object whose fields the platform passes through unchecked by this schema (a pod template's spec). */
    public static Map<String, Object> open(String description) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("description", description);
        schema.put("x-kubernetes-preserve-unknown-fields", true);
        return schema;
    }

    public static Map<String, Object> string(String description) {
        return Map.of("type", "string", "description", description);
    }

    /** A string of a fixed set of words. */
    public static Map<String, Object> oneOf(String description, List<String> values) {
        return Map.of("type", "string", "description", description, "enum", List.copyOf(values));
    }

    /** A string naming a constant of {@code values}, the enum the platform decodes the field into. */
    public static Map<String, Object> oneOf(String description, Class<? extends Enum<?>> values) {
        return oneOf(description, names(values));
    }

    /** The names of an enum's constants, in declared order. */
    static List<String> names(Class<? extends Enum<?>> values) {
        return Arrays.stream(values.getEnumConstants()).map(Enum::name).toList();
    }

    /** A point in time, RFC 3339 as Kubernetes writes it. */
    public static Map<String, Object> dateTime(String description) {
        return Map.of("type", "string", "format", "date-time", "description", description);
    }

    public static Map<String, Object> integer(String description) {
        return Map.of("type", "integer", "format", "int32", "description", description);
    }

    public static Map<String, Object> int64(String description) {
        return Map.of("type", "integer", "format", "int64", "description", description);
    }

    public static Map<String, Object> bool(String description) {
        return Map.of("type", "boolean", "description", description);
    }

    /**
     * A Kubernetes quantity ({@code 32}, {@code 500m}, {@code 16Gi}): a number or a string, as a CRD writes
     * {@code resource.Quantity}.
     */
    public static Map<String, Object> quantity(String description) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("description", description);
        schema.put("anyOf", List.of(Map.of("type", "integer"), Map.of("type", "string")));
        schema.put("x-kubernetes-int-or-string", true);
        return schema;
    }

    public static Map<String, Object> array(String description, Map<String, Object> items) {
        return Map.of("type", "array", "description", description, "items", items);
    }

    public static Map<String, Object> strings(String description) {
        return array(description, Map.of("type", "string"));
    }

    /** A map of keys of the user's choosing (labels, node selectors) to strings. */
    public static Map<String, Object> stringMap(String description) {
        return map(description, Map.of("type", "string"));
    }

    /** A map of keys of the user's choosing to values of one schema. */
    public static Map<String, Object> map(String description, Map<String, Object> values) {
        return Map.of("type", "object", "description", description, "additionalProperties", values);
    }

    /** A map of resource names to quantities ({@code requests}, {@code resourceUsage}). */
    public static Map<String, Object> resourceList(String description) {
        Map<String, Object> value = new LinkedHashMap<>(quantity("A quantity of the resource."));
        return map(description, value);
    }

    /** metav1.Condition, the conditions of Kueue's and JobSet's objects. */
    public static Map<String, Object> conditions(String description) {
        return array(description, object("Condition contains details for one aspect of the current state of the"
                + " object.", fields(
                "type", string("Type of the condition, in CamelCase."),
                "status", oneOf("Status of the condition: True, False or Unknown.", List.of("True", "False",
                        "Unknown")),
                "observedGeneration", int64("The .metadata.generation the condition was set from."),
                "lastTransitionTime", dateTime("When the condition last changed from one status to another."),
                "reason", string("A programmatic identifier of the reason for the last transition, in CamelCase."),
                "message", string("A human readable message with details about the transition; may be empty.")),
                "type", "status"));
    }

    /** metav1.LabelSelector. */
    public static Map<String, Object> labelSelector(String description) {
        return object(description, fields(
                "matchLabels", stringMap("Labels that must all be present with these values; each is the same as"
                        + " a matchExpressions requirement with the operator In and that one value."),
                "matchExpressions", array("Requirements on labels, all of which must hold.", object("A requirement"
                        + " on one label: its key, an operator and values.", fields(
                        "key", string("The label key the requirement applies to."),
                        "operator", oneOf("How the key relates to the values.", List.of("In", "NotIn", "Exists",
                                "DoesNotExist")),
                        "values", strings("Values of the label: not empty for In and NotIn, empty for Exists and"
                                + " DoesNotExist.")),
                        "key", "operator"))));
    }

    /** core/v1 Toleration. */
    public static Map<String, Object> toleration(String description) {
        return object(description, fields(
                "key", string("The taint key the toleration applies to; empty with operator Exists matches every"
                        + " taint."),
                "operator", oneOf("How the key relates to the value: Equal (the default) or Exists (any value).",
                        List.of("Equal", "Exists")),
                "value", string("The taint value the toleration matches; empty when the operator is Exists."),
                "effect", oneOf("The taint effect to match; empty matches every effect.", List.of("NoSchedule",
                        "PreferNoSchedule", "NoExecute")),
                "tolerationSeconds", int64("With effect NoExecute, how long the taint is tolerated before"
                        + " eviction; unset tolerates it forever.")));
    }
}
