package dev.platform.scheduler.core.preemption;

import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.Workload;

import java.util.Map;
import java.util.Set;

/**
 * What a preemptor needs: its ClusterQueue, its total requests per flavor-resource under the chosen assignment,
 * and the flavor-resources where that assignment needs preemption (only workloads using those are candidates).
 */
public record PreemptionRequest(Workload preemptor, String clusterQueue, Map<FlavorResource, Long> requests,
                                Set<FlavorResource> needPreemption) {
}
