package dev.platform.agent.cluster;

/** Whoever follows the cluster's JobSets besides the report: their changes as the watch delivers them. */
public interface JobSetListener {

    void jobSetChanged(ClusterJobSet jobSet);

    void jobSetRemoved(String namespace, String name);
}
