package dev.platform.scheduler.core.model;

/** ClusterQueue and LocalQueue {@code stopPolicy}. */
public enum StopPolicy {
    None,
    /** No new admissions; admitted workloads keep running. */
    Hold,
    /** No new admissions and admitted workloads are evicted. */
    HoldAndDrain
}
