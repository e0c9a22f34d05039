package dev.platform.scheduler.core;

import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * What admission fair sharing remembers of a LocalQueue (Kueue's LocalQueue
 * {@code status.fairSharing.admissionFairSharingStatus}): its consumed resources, a decaying average of what it had
 * admitted, in milli-units per resource summed over flavors, and when they were last updated. {@code score} is the
 * usage score the next cycle orders the LocalQueue's workloads by (unsettled entry penalties included; infinite for
 * a weight of 0); NaN where it is not known, as in what is restored.
 */
public record LocalQueueUsage(String namespace, String name, Map<String, Double> consumedResources,
                              Instant lastUpdate, double score) {

    public LocalQueueUsage {
        consumedResources = Map.copyOf(new TreeMap<>(consumedResources));
    }

    /** Consumed resources without a score: what is stored and restored. */
    public LocalQueueUsage(String namespace, String name, Map<String, Double> consumedResources, Instant lastUpdate) {
        this(namespace, name, consumedResources, lastUpdate, Double.NaN);
    }

    public String key() {
        return namespace + "/" + name;
    }
}
