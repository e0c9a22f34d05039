package dev.platform.scheduler.core;

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
        Map<String, String> withName = new HashMap<>(labels == null ? Map.of() : labels);
        withName.put(NAME_LABEL, name);
        labels = Map.copyOf(withName);
    }
}
