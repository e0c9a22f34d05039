package dev.platform.scheduler.config;

import dev.platform.api.manifest.ConfigManifest;

/** Identifies a configuration object of one kind; namespace is null for cluster-scoped kinds. */
public record ObjectKey(String namespace, String name) {

    static ObjectKey of(ConfigManifest manifest) {
        return new ObjectKey(manifest.namespace(), manifest.name());
    }

    public static ObjectKey cluster(String name) {
        return new ObjectKey(null, name);
    }

    @Override
    public String toString() {
        return namespace == null ? name : namespace + "/" + name;
    }
}
