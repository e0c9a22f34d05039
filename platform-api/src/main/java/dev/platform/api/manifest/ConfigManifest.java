package dev.platform.api.manifest;

/**
 * A decoded configuration object (Kueue quota objects, priority classes, namespaces and teams), defaults applied,
 * in the platform's own shape whatever API version it came in.
 */
public sealed interface ConfigManifest extends Manifest
        permits ResourceFlavorManifest, CohortManifest, ClusterQueueManifest, LocalQueueManifest,
        WorkloadPriorityClassManifest, PriorityClassManifest, NamespaceManifest, TeamManifest, AdmissionCheckManifest,
        ProvisioningRequestConfigManifest {

    /** Null for cluster-scoped kinds. */
    @Override
    default String namespace() {
        return null;
    }
}
