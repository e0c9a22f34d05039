package dev.platform.scheduler.core.model;

import java.util.HashMap;
import java.util.Map;

/**
 * A namespace with its labels, matched against ClusterQueue namespaceSelectors. As in Kubernetes, the label
 * {@value #NAME_LABEL} always holds the name, so a namespace nobody labelled still matches a selector on it.
 */
public record Namespace(String name, Map<String, String> labels) {

    /** Set by Kubernetes on every namespace (NamespaceDefaultLabelName). */
    public static final String NAME_LABEL = "kubernetes.io/metadata.name";

    public Namespace {
        if (labels == null || labels.isEmpty()) {
            // The common case, built for every workload of a namespace without an object: one small map.
            labels = Map.of(NAME_LABEL, name);
        } else {
            Map<String, String> withName = new HashMap<>(labels);
            withName.put(NAME_LABEL, name);
            labels = Map.copyOf(withName);
        }
    }
}
