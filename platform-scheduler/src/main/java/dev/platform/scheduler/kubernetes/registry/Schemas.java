package dev.platform.scheduler.kubernetes.registry;

import java.util.LinkedHashMap;
import java.util.Map;

/** Building OpenAPI v3 schemas of the served kinds, with the descriptions {@code kubectl explain} prints. */
public final class Schemas {

    private static final String OBJECT_META_REF = "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

    private Schemas() {
    }

    /** A kind's object: apiVersion, kind, metadata and the given top-level fields (spec, status, value...). */
    public static Map<String, Object> kind(String description, Map<String, Object> fields) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("apiVersion", string("APIVersion defines the versioned schema of this representation of an"
                + " object."));
        properties.put("kind", string("Kind is a string value representing the REST resource this object"
                + " represents."));
        properties.put("metadata", Map.of("allOf", java.util.List.of(Map.of("$ref", OBJECT_META_REF)),
                "description", "Standard object's metadata."));
        properties.putAll(fields);
        return object(description, properties);
    }

    public static Map<String, Object> object(String description, Map<String, Object> properties) {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("description", description);
        schema.put("properties", properties);
        return schema;
    }

    /** An object whose fields the platform's decoder checks, not this schema. */
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

    public static Map<String, Object> integer(String description) {
        return Map.of("type", "integer", "format", "int32", "description", description);
    }

    public static Map<String, Object> bool(String description) {
        return Map.of("type", "boolean", "description", description);
    }

    /** A resource with spec and status objects. */
    public static Map<String, Object> specAndStatus(String description, String spec, String status) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("spec", open(spec));
        fields.put("status", open(status));
        return kind(description, fields);
    }
}
