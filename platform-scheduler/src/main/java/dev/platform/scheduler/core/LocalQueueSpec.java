package dev.platform.scheduler.core;

/** A LocalQueue: the namespaced entry point pointing at a ClusterQueue. */
public record LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {

    public LocalQueueSpec {
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
    }

    public String key() {
        return namespace + "/" + name;
    }
}
