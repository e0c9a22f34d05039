package dev.platform.api.reason;

import java.util.Arrays;
import java.util.List;

/**
 * Why a workload was preempted: Kueue's four reasons with its human-readable wording (preemption.go
 * HumanReadablePreemptionReasons), and the platform's two that Kueue does not have.
 */
public enum PreemptionReason {
    InClusterQueue("prioritization in the ClusterQueue"),
    InCohortReclamation("reclamation within the cohort"),
    InCohortReclaimWhileBorrowing("reclamation within the cohort while borrowing"),
    InCohortFairSharing("fair sharing within the cohort"),
    /** Evicted to make room for a higher-priority workload whose node pool failed. */
    Hotswap("a hotswap after a node pool failure"),
    /** Evicted in priority-only mode (no queue, no quota) by a higher-priority workload, as GKE would. */
    PriorityPreemption("priority in priority-only mode");

    private final String humanReadable;

    PreemptionReason(String humanReadable) {
        this.humanReadable = humanReadable;
    }

    public String humanReadable() {
        return humanReadable;
    }

    /** Every reason's name, in declaration order: what a filter by reason accepts. */
    public static List<String> names() {
        return Arrays.stream(values()).map(Enum::name).toList();
    }
}
