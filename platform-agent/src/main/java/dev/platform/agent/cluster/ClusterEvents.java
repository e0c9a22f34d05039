package dev.platform.agent.cluster;

/** Changes a {@link Cluster} pushes as they happen (informer events, or simulated ones). */
public interface ClusterEvents {

    void nodeChanged(ClusterNode node);

    void nodeRemoved(String name);

    void podChanged(ClusterPod pod);

    void podRemoved(String namespace, String name);

    /** A JobSet or Job added or changed. */
    void jobChanged(ClusterJob job);

    void jobRemoved(JobKind kind, String namespace, String name);
}
