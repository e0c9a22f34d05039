package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Request bodies: an object in JSON (or YAML for server-side apply), with kube-apiserver's answers to bad ones. */
final class Bodies {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };
    /** kube-apiserver's limit on a request body. */
    static final int MAX_BYTES = 3 * 1024 * 1024;

    private final JsonMapper json;

    Bodies(JsonMapper json) {
        this.json = json;
    }

    byte[] read(InputStream in) throws IOException {
        byte[] body = in.readNBytes(MAX_BYTES + 1);
        if (body.length > MAX_BYTES) {
            throw StatusError.requestTooLarge();
        }
        return body;
    }

    Map<String, Object> object(byte[] body, String contentType) {
        if (contentType != null && contentType.startsWith(ProtobufReviews.MEDIA_TYPE)) {
            return ProtobufReviews.read(body);
        }
        if (contentType != null && contentType.contains("yaml")) {
            Object loaded;
            try {
                loaded = new Yaml(new SafeConstructor(new LoaderOptions())).load(new String(body, StandardCharsets.UTF_8));
            } catch (RuntimeException e) {
                throw StatusError.badRequest("error converting YAML to JSON: " + e.getMessage());
            }
            if (!(loaded instanceof Map<?, ?> map)) {
                throw StatusError.badRequest("the body is not a YAML object");
            }
            return json.convertValue(map, OBJECT);
        }
        try {
            Map<String, Object> object = json.readValue(body, OBJECT);
            if (object == null) {
                throw StatusError.badRequest("the body of the request is empty");
            }
            return new LinkedHashMap<>(object);
        } catch (JacksonException e) {
            throw StatusError.badRequest("couldn't get version/kind; json parse error: " + e.getOriginalMessage());
        }
    }

    /**
     * Checks what the body says of itself against the request: its kind and group, its name against the path's
     * (when the path names one) and its namespace against the path's, which it takes when it says none.
     */
    static Map<String, Object> matched(Map<String, Object> object, ResourceKind kind, ApiRequest request) {
        Object apiVersion = object.get("apiVersion");
        Object objectKind = object.get("kind");
        if (objectKind != null && !kind.kind().equals(objectKind)) {
            throw StatusError.badRequest("the API version in the data (" + apiVersion + ") and kind (" + objectKind
                    + ") do not match the resource " + kind.qualifiedResource());
        }
        if (apiVersion != null && !kind.versions().stream().map(kind::apiVersion).toList().contains(apiVersion)) {
            throw StatusError.badRequest("the API version in the data (" + apiVersion + ") does not match the expected"
                    + " API version (" + kind.apiVersion(request.version()) + ")");
        }
        object.put("apiVersion", kind.apiVersion(request.version()));
        object.put("kind", kind.kind());
        Map<String, Object> metadata = Objects.mapIn(object, "metadata");
        // empty is absent in Kubernetes' objects (omitempty): client-java's models send these empty, kubectl leaves
        // them out, and both write the same object
        for (String collection : List.of("labels", "annotations", "finalizers", "ownerReferences")) {
            if (metadata.get(collection) instanceof Map<?, ?> map && map.isEmpty()
                    || metadata.get(collection) instanceof List<?> list && list.isEmpty()) {
                metadata.remove(collection);
            }
        }
        if (request.name() != null) {
            Object name = metadata.get("name");
            if (name == null || "".equals(name)) {
                metadata.put("name", request.name());
            } else if (!request.name().equals(name)) {
                throw StatusError.badRequest("the name of the object (" + name + ") does not match the name on the URL ("
                        + request.name() + ")");
            }
        }
        if (kind.namespaced()) {
            Object namespace = metadata.get("namespace");
            if (namespace == null || "".equals(namespace)) {
                metadata.put("namespace", request.namespace());
            } else if (!namespace.equals(request.namespace())) {
                throw StatusError.badRequest("the namespace of the provided object does not match the namespace sent"
                        + " on the request");
            }
        } else {
            metadata.remove("namespace");
        }
        return object;
    }
}
