package dev.platform.api.reason;

/** Why the leader set a workload inactive (Kueue's DeactivationTarget reasons). */
public enum DeactivationReason {
    /** Requeued {@code backoffLimitCount} times already (Kueue's {@code WorkloadRequeuingLimitExceeded}). */
    RequeuingLimitExceeded("exceeding the maximum number of re-queuing retries"),
    /** Admitted for longer than its maximum execution time (Kueue's {@code WorkloadMaximumExecutionTimeExceeded}). */
    MaximumExecutionTimeExceeded("exceeding the maximum execution time"),
    /** An admission check rejected it (Kueue's {@code WorkloadEvictedByAdmissionCheck} deactivation target). */
    AdmissionCheck("a rejected admission check");

    private final String humanReadable;

    DeactivationReason(String humanReadable) {
        this.humanReadable = humanReadable;
    }

    /** Kueue's wording, as in "The workload is deactivated due to exceeding the maximum execution time". */
    public String humanReadable() {
        return humanReadable;
    }

    /** The Evicted condition's reason, as Kueue writes it ({@code DeactivatedDueToRequeuingLimitExceeded}). */
    public String evictedReason() {
        return EvictionReason.Deactivated.name() + "DueTo" + name();
    }
}
