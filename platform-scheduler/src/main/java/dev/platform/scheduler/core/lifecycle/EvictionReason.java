package dev.platform.scheduler.core.lifecycle;

/** Why the leader's lifecycle timers take quota away from an admitted workload (Kueue's Evicted reasons, and ours). */
public enum EvictionReason {
    /** Its pods were not all ready in time (Kueue's {@code WorkloadEvictedByPodsReadyTimeout}). */
    PodsReadyTimeout,
    /** It was deactivated; the Evicted condition reads {@code DeactivatedDueTo<DeactivationReason>} (Kueue's form). */
    Deactivated,
    /** Ours: its agent could not start it for a reason that may pass (API error, timeout, 5xx, 429, conflict). */
    StartFailed
}
