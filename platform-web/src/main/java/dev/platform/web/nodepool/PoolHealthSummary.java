package dev.platform.web.nodepool;

import dev.platform.web.nodepool.NodePoolQueries.ClusterPools;
import dev.platform.web.nodepool.NodePoolQueries.Pool;

import java.util.List;

/** Node pools counted by the health shown, over every cluster. */
public record PoolHealthSummary(int healthy, int degraded, int unhealthy, int unknown) {

    public static PoolHealthSummary of(List<ClusterPools> clusters) {
        int[] counts = new int[4];
        for (ClusterPools cluster : clusters) {
            for (Pool pool : cluster.pools()) {
                switch (pool.health()) {
                    case "Healthy" -> counts[0]++;
                    case "Degraded" -> counts[1]++;
                    case "Unhealthy" -> counts[2]++;
                    default -> counts[3]++;
                }
            }
        }
        return new PoolHealthSummary(counts[0], counts[1], counts[2], counts[3]);
    }

    public int total() {
        return healthy + degraded + unhealthy + unknown;
    }
}
