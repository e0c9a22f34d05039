package dev.platform.scheduler.core;

/** Why a workload was preempted, with Kueue's human-readable wording (preemption.go HumanReadablePreemptionReasons). */
public enum PreemptionReason {
    InClusterQueue("prioritization in the ClusterQueue"),
    InCohortReclamation("reclamation within the cohort"),
    InCohortReclaimWhileBorrowing("reclamation within the cohort while borrowing"),
    InCohortFairSharing("fair sharing within the cohort");

    private final String humanReadable;

    PreemptionReason(String humanReadable) {
        this.humanReadable = humanReadable;
    }

    public String humanReadable() {
        return humanReadable;
    }
}
