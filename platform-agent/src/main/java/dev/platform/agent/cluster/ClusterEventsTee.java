package dev.platform.agent.cluster;

import java.util.List;

/** Hands every change to the report, and the JobSet and Job changes also to the listeners that act on them. */
public final class ClusterEventsTee implements ClusterEvents {

    private final ClusterEvents report;
    private final List<JobListener> listeners;

    public ClusterEventsTee(ClusterEvents report, List<JobListener> listeners) {
        this.report = report;
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void nodeChanged(ClusterNode node) {
        report.nodeChanged(node);
    }

    @Override
    public void nodeRemoved(String name) {
        report.nodeRemoved(name);
    }

    @Override
    public void podChanged(ClusterPod pod) {
        report.podChanged(pod);
    }

    @Override
    public void podRemoved(String namespace, String name) {
        report.podRemoved(namespace, name);
    }

    @Override
    public void jobChanged(ClusterJob job) {
        report.jobChanged(job);
        listeners.forEach(l -> l.jobChanged(job));
    }

    @Override
    public void jobRemoved(JobKind kind, String namespace, String name) {
        report.jobRemoved(kind, namespace, name);
        listeners.forEach(l -> l.jobRemoved(kind, namespace, name));
    }
}
