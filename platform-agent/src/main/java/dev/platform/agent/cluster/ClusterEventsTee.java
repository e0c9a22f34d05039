package dev.platform.agent.cluster;

import java.util.List;

/** Hands every change to the report, and the JobSet changes also to the listeners that act on JobSets. */
public final class ClusterEventsTee implements ClusterEvents {

    private final ClusterEvents report;
    private final List<JobSetListener> listeners;

    public ClusterEventsTee(ClusterEvents report, List<JobSetListener> listeners) {
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
    public void jobSetChanged(ClusterJobSet jobSet) {
        report.jobSetChanged(jobSet);
        listeners.forEach(l -> l.jobSetChanged(jobSet));
    }

    @Override
    public void jobSetRemoved(String namespace, String name) {
        report.jobSetRemoved(namespace, name);
        listeners.forEach(l -> l.jobSetRemoved(namespace, name));
    }
}
