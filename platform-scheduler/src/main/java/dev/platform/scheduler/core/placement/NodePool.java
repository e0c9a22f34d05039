package dev.platform.scheduler.core.placement;


import java.util.Map;

/**
 * A node pool as placement sees it: a multi-host TPU slice is atomic, so a pool is used whole by
 * one replica of an exclusive-topology workload, and an unhealthy node makes the whole pool
 * unusable.
 *
 * @param labels       node labels common to the pool (nodepool, accelerator, topology)
 * @param nodes        nodes in the pool
 * @param chipsPerNode allocatable accelerator chips per node
 * @param health       the pool's health; only {@link Health#Healthy} pools take new work
 * @param reservedFor  the workload (uid) the cluster provisioned this pool for, which alone may be placed on it;
 *                     null for a pool any workload may use
 */
public record NodePool(String cluster, String name, Map<String, String> labels, int nodes, int chipsPerNode,
                       Health health, String reservedFor) {

    public NodePool {
        labels = Map.copyOf(labels);
    }

    /** A pool of the cluster's own, for any workload. */
    public NodePool(String cluster, String name, Map<String, String> labels, int nodes, int chipsPerNode,
                    Health health) {
        this(cluster, name, labels, nodes, chipsPerNode, health, null);
    }

    /** Whether {@code workloadUid} may be placed on this pool: it is nobody's, or provisioned for that workload. */
    public boolean usableBy(String workloadUid) {
        return reservedFor == null || reservedFor.equals(workloadUid);
    }

    public enum Health { Healthy, Degraded, Unhealthy, Unknown }

    /** Identifies a pool across clusters. */
    public PoolKey key() {
        return new PoolKey(cluster, name);
    }

    public long chips() {
        return (long) nodes * chipsPerNode;
    }
}
