package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.KindRegistry;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenAPI v3 as kube-apiserver serves it: {@code /openapi/v3} lists a document per group version, each with the
 * paths of its resources and their schemas. kubectl reads it to learn that the server validates fields itself (the
 * {@code fieldValidation} parameter of each PATCH), to choose its patch format, and for {@code kubectl explain}.
 */
public final class OpenApiHandler {

    static final String OBJECT_META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

    private final KindRegistry registry;
    private final Responses responses;
    private final JsonMapper json;
    private final String prefix;
    private final Map<String, byte[]> documents = new LinkedHashMap<>();
    private final Map<String, String> hashes = new LinkedHashMap<>();

    OpenApiHandler(KindRegistry registry, Responses responses, JsonMapper json, String prefix) {
        this.registry = registry;
        this.responses = responses;
        this.json = json;
        this.prefix = prefix;
        registry.groups().forEach((group, versions) -> versions.forEach(version -> {
            String path = group.isEmpty() ? "api/" + version : "apis/" + group + "/" + version;
            byte[] document = json.writeValueAsBytes(document(group, version));
            documents.put(path, document);
            hashes.put(path, hash(document));
        }));
    }

    /** {@code /openapi/v3}: where each group version's document is, with a hash that changes with it. */
    public void index(HttpServletResponse response) throws IOException {
        Map<String, Object> paths = new LinkedHashMap<>();
        hashes.forEach((path, hash) -> paths.put(path, Map.of("serverRelativeURL",
                prefix + "/openapi/v3/" + path + "?hash=" + hash)));
        responses.write(response, Map.of("paths", paths));
    }

    /**
     * {@code /openapi/v2}: an empty document, in the protobuf form clients ask for. The schemas are published in
     * OpenAPI v3 only; kubectl before 1.28 still reads v2 before it applies, and with an empty one it takes the patch
     * formats from its own types (strategic for Kubernetes' kinds, JSON merge for the others) while the server
     * validates fields itself.
     */
    public void emptyVersion2(HttpServletResponse response) {
        response.setStatus(200);
        response.setContentType("application/com.github.proto-openapi.spec.v2.v1.0+protobuf");
        response.setContentLength(0);
    }

    public void document(HttpServletResponse response, String path) throws IOException {
        byte[] document = documents.get(path);
        if (document == null) {
            throw StatusError.noResource();
        }
        response.setStatus(200);
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "public, immutable");
        response.getOutputStream().write(document);
    }

    private Map<String, Object> document(String group, String version) {
        Map<String, Object> paths = new LinkedHashMap<>();
        Map<String, Object> schemas = new LinkedHashMap<>();
        schemas.put(OBJECT_META, objectMeta());
        for (ResourceKind kind : registry.inGroupVersion(group, version)) {
            String schemaName = schemaName(kind, version);
            schemas.put(schemaName, schema(kind, version));
            String base = "/" + (group.isEmpty() ? "api/" : "apis/" + group + "/") + version + "/"
                    + (kind.namespaced() ? "namespaces/{namespace}/" : "") + kind.plural();
            Map<String, Object> collection = new LinkedHashMap<>();
            Map<String, Object> item = new LinkedHashMap<>();
            Map<String, Object> gvk = Map.of("group", group, "version", version, "kind", kind.kind());
            if (kind.serves(Verb.list)) {
                collection.put("get", operation(kind, "list", gvk, List.of("labelSelector", "fieldSelector", "limit",
                        "continue", "watch", "resourceVersion"), null, schemaName));
            }
            if (kind.serves(Verb.create)) {
                collection.put("post", operation(kind, "post", gvk, List.of("dryRun", "fieldManager",
                        "fieldValidation"), List.of("application/json", "application/yaml"), schemaName));
            }
            if (kind.serves(Verb.get)) {
                item.put("get", operation(kind, "get", gvk, List.of(), null, schemaName));
            }
            if (kind.serves(Verb.update)) {
                item.put("put", operation(kind, "put", gvk, List.of("dryRun", "fieldManager", "fieldValidation"),
                        List.of("application/json", "application/yaml"), schemaName));
            }
            if (kind.serves(Verb.patch)) {
                List<String> patchTypes = new ArrayList<>(List.of("application/json-patch+json",
                        "application/merge-patch+json", "application/apply-patch+yaml"));
                if (List.of("", "batch", "scheduling.k8s.io").contains(group)) {
                    patchTypes.add("application/strategic-merge-patch+json");
                }
                item.put("patch", operation(kind, "patch", gvk, List.of("dryRun", "fieldManager", "fieldValidation",
                        "force"), patchTypes, schemaName));
            }
            if (kind.serves(Verb.delete)) {
                item.put("delete", operation(kind, "delete", gvk, List.of("dryRun"), null, schemaName));
            }
            if (!collection.isEmpty()) {
                paths.put(base, collection);
            }
            if (!item.isEmpty()) {
                paths.put(base + "/{name}", item);
            }
        }
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("openapi", "3.0.0");
        document.put("info", Map.of("title", "Kubernetes", "version", "v" + DiscoveryHandler.MAJOR + "."
                + DiscoveryHandler.MINOR + ".0"));
        document.put("paths", paths);
        document.put("components", Map.of("schemas", schemas));
        return document;
    }

    private static Map<String, Object> operation(ResourceKind kind, String action, Map<String, Object> gvk,
                                                 List<String> parameters, List<String> bodyTypes, String schemaName) {
        Map<String, Object> operation = new LinkedHashMap<>();
        operation.put("description", action + " " + kind.kind());
        operation.put("operationId", action + kind.kind());
        operation.put("parameters", parameters.stream().map(p -> Map.of("name", p, "in", "query",
                "schema", Map.of("type", p.equals("limit") ? "integer" : p.equals("watch") || p.equals("force")
                        ? "boolean" : "string"))).toList());
        Map<String, Object> ref = Map.of("schema", Map.of("$ref", "#/components/schemas/" + schemaName));
        if (bodyTypes != null) {
            Map<String, Object> content = new LinkedHashMap<>();
            bodyTypes.forEach(t -> content.put(t, t.startsWith("application/json") || t.startsWith("application/yaml")
                    ? ref : Map.of("schema", Map.of("type", "object"))));
            operation.put("requestBody", Map.of("content", content, "required", true));
        }
        operation.put("responses", Map.of("200", Map.of("description", "OK", "content",
                Map.of("application/json", ref))));
        operation.put("x-kubernetes-action", action);
        operation.put("x-kubernetes-group-version-kind", gvk);
        return operation;
    }

    /** kube-openapi's name of a schema: the group reversed, the version and the kind. */
    static String schemaName(ResourceKind kind, String version) {
        if (kind.group().isEmpty()) {
            return "io.k8s.api.core." + version + "." + kind.kind();
        }
        List<String> parts = new ArrayList<>(List.of(kind.group().split("\\.")));
        java.util.Collections.reverse(parts);
        return String.join(".", parts) + "." + version + "." + kind.kind();
    }

    private static Map<String, Object> schema(ResourceKind kind, String version) {
        Map<String, Object> schema = new LinkedHashMap<>(kind.schemaIn(version));
        schema.put("x-kubernetes-group-version-kind", List.of(Map.of("group", kind.group(), "version", version,
                "kind", kind.kind())));
        return schema;
    }

    private static Map<String, Object> objectMeta() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("name", field("string", "Name must be unique within a namespace. Cannot be updated."));
        properties.put("namespace", field("string", "Namespace defines the space within which each name must be"
                + " unique. Cluster-scoped objects have none."));
        properties.put("uid", field("string", "UID is the unique in time and space value for this object,"
                + " set by the server on creation."));
        properties.put("resourceVersion", field("string", "An opaque value that represents the internal version of"
                + " this object, used for optimistic concurrency and watch."));
        properties.put("generation", field("integer", "A sequence number representing a specific generation of the"
                + " desired state."));
        properties.put("creationTimestamp", field("string", "The server time when this object was created."));
        properties.put("labels", Map.of("type", "object", "additionalProperties", Map.of("type", "string"),
                "description", "Map of string keys and values that can be used to organize and categorize objects."));
        properties.put("annotations", Map.of("type", "object", "additionalProperties", Map.of("type", "string"),
                "description", "Unstructured key value map stored with a resource."));
        properties.put("generateName", field("string", "An optional prefix, used by the server, to generate a unique"
                + " name ONLY IF the Name field has not been provided."));
        properties.put("ownerReferences", Map.of("type", "array", "items", Map.of("type", "object",
                "x-kubernetes-preserve-unknown-fields", true), "description", "Objects depended by this object."));
        properties.put("finalizers", Map.of("type", "array", "items", Map.of("type", "string"),
                "description", "Must be empty before the object is deleted from the registry."));
        properties.put("managedFields", Map.of("type", "array", "items", Map.of("type", "object",
                "x-kubernetes-preserve-unknown-fields", true), "description", "Which field managers manage which"
                + " fields."));
        return Map.of("type", "object", "description", "ObjectMeta is metadata that all persisted resources must"
                + " have, which includes all objects users must create.", "properties", properties);
    }

    private static Map<String, Object> field(String type, String description) {
        return Map.of("type", type, "description", description);
    }

    private static String hash(byte[] document) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-512").digest(document)).substring(0, 64)
                    .toUpperCase();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-512 is a required algorithm of every Java platform", e);
        }
    }

}
