package dev.platform.agent.simulation;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** RFC 7386 JSON merge patch, as the API server applies application/merge-patch+json. */
public final class JsonMergePatch {

    private JsonMergePatch() {
    }

    public static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!(patch instanceof ObjectNode patchObject)) {
            return patch.deepCopy();
        }
        ObjectNode result = target instanceof ObjectNode targetObject
                ? targetObject.deepCopy()
                : JsonNodeFactory.instance.objectNode();
        patchObject.properties().forEach(field -> {
            if (field.getValue().isNull()) {
                result.remove(field.getKey());
            } else {
                result.set(field.getKey(), apply(result.get(field.getKey()), field.getValue()));
            }
        });
        return result;
    }
}
