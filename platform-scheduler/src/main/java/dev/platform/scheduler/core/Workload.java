package dev.platform.scheduler.core;

import java.time.Instant;
import java.util.List;

/**
 * A workload as the core sees it. {@code queuedAt} orders FIFO (creation time, or the time it was last evicted
 * and requeued, as Kueue's queue-order timestamp).
 */
public record Workload(String uid, String namespace, String name, String localQueue, int priority,
                       Instant queuedAt, List<PodSet> podSets) {

    public Workload {
        podSets = List.copyOf(podSets);
    }

    public String localQueueKey() {
        return namespace + "/" + localQueue;
    }

    public boolean allowsPartialAdmission() {
        return podSets.stream().anyMatch(PodSet::allowsPartialAdmission);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
