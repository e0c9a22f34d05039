package dev.platform.agent.cluster;

/** Whoever follows the cluster's JobSets and Jobs besides the report: their changes as the watch delivers them. */
public interface JobListener {

    void jobChanged(ClusterJob job);

    void jobRemoved(JobKind kind, String namespace, String name);
}
