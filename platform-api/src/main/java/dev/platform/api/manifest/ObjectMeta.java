package dev.platform.api.manifest;

import java.util.Map;

/** The part of {@code metadata} the platform reads. Namespace is null for cluster-scoped kinds. */
public record ObjectMeta(String name, String namespace, Map<String, String> labels, Map<String, String> annotations) {

    public ObjectMeta {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }
}
