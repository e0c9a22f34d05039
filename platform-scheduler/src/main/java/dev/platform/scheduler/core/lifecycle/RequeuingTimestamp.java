package dev.platform.scheduler.core.lifecycle;

/**
 * Which time orders a workload in its queue after it was requeued for its pods' readiness (Kueue's
 * {@code requeuingStrategy.timestamp}).
 */
public enum RequeuingTimestamp {
    /** The time of the eviction: the requeued workload queues behind those that waited meanwhile (Kueue's default). */
    Eviction,
    /** Its creation time: it keeps its original place. */
    Creation
}
