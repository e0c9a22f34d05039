package dev.platform.agent.cluster;

/** Changes a {@link Cluster} pushes as they happen (informer events, or simulated ones). */
public interface ClusterEvents {

    void nodeChanged(ClusterNode node);

    void nodeRemoved(String name);

    void podChanged(ClusterPod pod);

    void podRemoved(String namespace, String name);

    void jobSetChanged(ClusterJobSet jobSet);

    void jobSetRemoved(String namespace, String name);
}
