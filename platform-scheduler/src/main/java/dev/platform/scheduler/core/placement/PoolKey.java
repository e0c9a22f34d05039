package dev.platform.scheduler.core.placement;


import java.util.Comparator;

/** A node pool's identity: pool names are unique within a cluster only. Ordered by cluster, then pool. */
public record PoolKey(String cluster, String pool) implements Comparable<PoolKey> {

    private static final Comparator<PoolKey> ORDER = Comparator.comparing(PoolKey::cluster)
            .thenComparing(PoolKey::pool);

    @Override
    public int compareTo(PoolKey other) {
        return ORDER.compare(this, other);
    }

    /** {@code cluster/pool}, as messages and logs name a pool. */
    @Override
    public String toString() {
        return cluster + "/" + pool;
    }
}
