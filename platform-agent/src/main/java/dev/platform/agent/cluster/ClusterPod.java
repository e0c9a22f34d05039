package dev.platform.agent.cluster;

/**
 * A pod the platform owns (label platform.dev/managed=true). {@code workloadUid} comes from its
 * platform.dev/workload-uid label; {@code nodeName} is null until bound; {@code phase} is the
 * Kubernetes pod phase (Pending, Running, Succeeded, Failed, Unknown); {@code ready} is whether its
 * Ready condition is True.
 */
public record ClusterPod(String namespace, String name, String workloadUid, String nodeName, String phase,
                         boolean ready) {

    public boolean isActive() {
        return !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }

    public String key() {
        return namespace + "/" + name;
    }
}
