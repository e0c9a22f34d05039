package dev.platform.scheduler.core.model;

/** ClusterQueue {@code queueingStrategy}: whether a head that cannot be admitted blocks the queue. */
public enum QueueingStrategy {
    /** The head blocks the queue until it is admitted (Kueue StrictFIFO). */
    StrictFIFO,
    /** A head that cannot be admitted moves to the inadmissible set; the next one is tried. */
    BestEffortFIFO
}
