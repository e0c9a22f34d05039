package dev.platform.scheduler.core.model;

/**
 * A LocalQueue: the namespaced entry point pointing at a ClusterQueue. {@code fairWeight} is its
 * {@code spec.fairSharing.weight} (Kueue's default 1): under admission fair sharing its usage is divided by it, and
 * a LocalQueue of weight 0 never goes first.
 */
public record LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy,
                             double fairWeight) {

    public LocalQueueSpec {
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
        if (!(fairWeight >= 0)) {
            throw new IllegalArgumentException("fairWeight must be zero or more, not " + fairWeight);
        }
    }

    /** A LocalQueue of weight 1. */
    public LocalQueueSpec(String namespace, String name, String clusterQueue, StopPolicy stopPolicy) {
        this(namespace, name, clusterQueue, stopPolicy, 1);
    }

    public String key() {
        return namespace + "/" + name;
    }
}
