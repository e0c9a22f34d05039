package dev.platform.api.manifest;

import java.util.HashMap;
import java.util.Map;

/**
 * A core v1 Namespace, read for its labels: what ClusterQueue namespaceSelectors match. Cluster-scoped,
 * like in Kubernetes. As the API server does, the label {@value #NAME_LABEL} always holds the name.
 */
public record NamespaceManifest(String name, Map<String, String> labels) implements ConfigManifest {

    /** Set by Kubernetes on every namespace (NamespaceDefaultLabelName); selectors may match it. */
    public static final String NAME_LABEL = "kubernetes.io/metadata.name";

    public NamespaceManifest {
        Map<String, String> withName = new HashMap<>(labels == null ? Map.of() : labels);
        if (name != null) {
            withName.put(NAME_LABEL, name);
        }
        labels = Map.copyOf(withName);
    }

    @Override
    public Kind kind() {
        return Kind.NAMESPACE;
    }
}
