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

    /**
     * Set to {@value #PRIORITY_ONLY_ALLOWED} by an Admin, workloads of the namespace that name no LocalQueue may run
     * in priority-only mode (no quota); without it they go to the namespace's LocalQueue {@code default} or are
     * refused. A label, as Pod Security Admission's levels are, so only who may change a Namespace grants it.
     */
    public static final String PRIORITY_ONLY_LABEL = "platform.dev/priority-only";
    public static final String PRIORITY_ONLY_ALLOWED = "allowed";

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
