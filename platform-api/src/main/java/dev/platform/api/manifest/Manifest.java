package dev.platform.api.manifest;

/** Any decoded document: a configuration object or a workload. */
public sealed interface Manifest permits ConfigManifest, WorkloadManifest {

    Kind kind();

    String name();

    /** Null for cluster-scoped kinds. */
    String namespace();
}
