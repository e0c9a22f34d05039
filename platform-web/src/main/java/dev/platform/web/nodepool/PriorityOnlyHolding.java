package dev.platform.web.nodepool;

import dev.platform.web.nodepool.NodePoolQueries.ClusterPools;
import dev.platform.web.nodepool.NodePoolQueries.PlacedWorkload;
import dev.platform.web.nodepool.NodePoolQueries.Pool;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What workloads in priority-only mode hold, over every cluster: they take whole pools without quota, so no
 * ClusterQueue's usage counts these chips.
 */
public record PriorityOnlyHolding(int workloads, int pools, int chips) {

    public static PriorityOnlyHolding of(List<ClusterPools> clusters) {
        Set<List<String>> workloads = new HashSet<>();
        int pools = 0;
        int chips = 0;
        for (ClusterPools cluster : clusters) {
            for (Pool pool : cluster.pools()) {
                List<PlacedWorkload> holders = pool.workloads().stream().filter(PlacedWorkload::priorityOnly).toList();
                if (!holders.isEmpty()) {
                    pools++;
                    chips += pool.chips();
                    holders.forEach(w -> workloads.add(List.of(w.namespace(), w.name())));
                }
            }
        }
        return new PriorityOnlyHolding(workloads.size(), pools, chips);
    }

    public boolean isEmpty() {
        return pools == 0;
    }
}
