package dev.platform.scheduler.core.preemption;

import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.Workload;
import dev.platform.scheduler.core.quota.Snapshot;

import java.util.Map;
import java.util.Set;

/**
 * What a preemptor needs: its ClusterQueue, its total requests per flavor-resource under the chosen assignment,
 * and the flavor-resources where that assignment needs preemption (only workloads using those are candidates).
 * {@code ignoringMinimumRuntime} asks which victims there would be if no workload were protected by its queue's
 * minimum runtime: how a preemptor learns what it waits for.
 */
public record PreemptionRequest(Workload preemptor, String clusterQueue, Map<FlavorResource, Long> requests,
                                Set<FlavorResource> needPreemption, boolean ignoringMinimumRuntime) {

    public PreemptionRequest(Workload preemptor, String clusterQueue, Map<FlavorResource, Long> requests,
                             Set<FlavorResource> needPreemption) {
        this(preemptor, clusterQueue, requests, needPreemption, false);
    }

    /** Whether {@code candidate} may be considered at all: not while its queue's minimum runtime protects it. */
    public boolean mayConsider(AdmittedWorkload candidate, Snapshot snapshot) {
        return ignoringMinimumRuntime || snapshot.protectedUntil(candidate) == null;
    }

    PreemptionRequest withMinimumRuntimeIgnored() {
        return new PreemptionRequest(preemptor, clusterQueue, requests, needPreemption, true);
    }
}
