package dev.platform.scheduler.core.placement;

import java.util.List;
import java.util.Map;

/**
 * What one workload needs from node pools: per PodSet, a number of slices (replicas) each wanting
 * one whole pool whose labels satisfy the flavor's node labels and the pods' node selector, with
 * room for its pods' chips.
 */
public record SliceRequest(String workloadUid, int priority, List<PodSetSlices> podSets) {

    public SliceRequest {
        podSets = List.copyOf(podSets);
    }

    /**
     * @param exclusive      one whole pool per replica (JobSet exclusive-topology on the node pool);
     *                       false: the PodSet needs no dedicated pool
     * @param chipsPerReplica accelerator chips one replica needs (pods per replica x chips per pod)
     * @param podsPerReplica  pods in one replica; a pool needs at least as many nodes
     */
    public record PodSetSlices(String name, boolean exclusive, int replicas, int podsPerReplica, long chipsPerReplica,
                               Map<String, String> requiredLabels) {
        public PodSetSlices {
            requiredLabels = Map.copyOf(requiredLabels);
        }

        boolean fits(NodePool pool) {
            return pool.health() == NodePool.Health.Healthy
                    && requiredLabels.entrySet().stream().allMatch(e -> e.getValue().equals(pool.labels().get(e.getKey())))
                    && pool.nodes() >= podsPerReplica
                    && pool.chips() >= chipsPerReplica;
        }
    }

    public int slicesNeeded() {
        return podSets.stream().filter(PodSetSlices::exclusive).mapToInt(PodSetSlices::replicas).sum();
    }
}
