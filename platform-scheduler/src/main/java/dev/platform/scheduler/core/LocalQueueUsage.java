package dev.platform.scheduler.core;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * What admission fair sharing remembers of a LocalQueue (Kueue's LocalQueue
 * {@code status.fairSharing.admissionFairSharingStatus}): its consumed resources, a decaying average of what it had
 * admitted, in milli-units per resource summed over flavors, and when they were last updated.
 */
public record LocalQueueUsage(String namespace, String name, Map<String, Double> consumedResources,
                              Instant lastUpdate) {

    public LocalQueueUsage {
        consumedResources = Map.copyOf(new TreeMap<>(consumedResources));
    }

    public String key() {
        return namespace + "/" + name;
    }
}
