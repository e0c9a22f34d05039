package dev.platform.agent.cluster;

public enum EvictionOutcome {
    EVICTED,
    /** the pod no longer exists: as good as evicted. */
    GONE,
    /** 429 from the Eviction API: a PodDisruptionBudget forbids it now; try again later. */
    BLOCKED_BY_DISRUPTION_BUDGET
}
