package dev.platform.scheduler.core;

import dev.platform.api.reason.PendingReason;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.PodSetAssignment;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The flavors chosen for a workload in one ClusterQueue and what admitting it needs (Kueue flavorassigner.Assignment).
 * {@code borrowing} is the height of the lowest subtree whose quota covers it (0 = within the ClusterQueue).
 */
record Assignment(List<PodSetAssignment> podSets, Mode mode, int borrowing, Map<FlavorResource, Long> usage,
                  Set<FlavorResource> needPreemption, PendingReason noFitReason, String message) {

    /** The representative mode of an assignment: the worst over its pod sets and resources. */
    enum Mode { NO_FIT, PREEMPT, FIT }

    boolean borrows() {
        return borrowing > 0;
    }

    Admission admission(String clusterQueue) {
        return new Admission(clusterQueue, podSets);
    }
}
