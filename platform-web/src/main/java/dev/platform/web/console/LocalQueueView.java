package dev.platform.web.console;

import java.time.Instant;

/**
 * A LocalQueue: the namespace's entry to a ClusterQueue. Under admission fair sharing, {@code weight} is its
 * {@code fairSharing.weight} and {@code consumedResources} its recent usage in words ({@code "cpu 3500m, google.com/tpu 8"}, Kubernetes quantities summed over flavors),
 * updated at {@code usageUpdatedAt}; both null when nothing has been recorded.
 */
public record LocalQueueView(String namespace, String name, String clusterQueue, String stopPolicy, String weight,
                             String consumedResources, Instant usageUpdatedAt) {

    /** A LocalQueue shown without its usage. */
    public LocalQueueView(String namespace, String name, String clusterQueue, String stopPolicy) {
        this(namespace, name, clusterQueue, stopPolicy, null, null, null);
    }
}
