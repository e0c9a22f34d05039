package dev.platform.api.agent;

import java.util.List;

/**
 * Pod and JobSet status of one platform workload (JobSet label platform.dev/workload-uid).
 * {@code nodes} and {@code nodePools} are where its pods are bound, sorted. {@code podsReady}
 * counts the running pods whose Ready condition is True; null from agents that do not report it,
 * for which the scheduler reads running pods as ready.
 */
public record WorkloadStatusReport(
        String workloadUid,
        String namespace,
        String jobSetName,
        WorkloadPhase phase,
        int podsPending,
        int podsRunning,
        int podsSucceeded,
        int podsFailed,
        List<String> nodes,
        List<String> nodePools,
        Integer podsReady) {

    public WorkloadStatusReport {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    }

    /** A report without a count of ready pods (as agents before that field sent). */
    public WorkloadStatusReport(String workloadUid, String namespace, String jobSetName, WorkloadPhase phase,
                                int podsPending, int podsRunning, int podsSucceeded, int podsFailed,
                                List<String> nodes, List<String> nodePools) {
        this(workloadUid, namespace, jobSetName, phase, podsPending, podsRunning, podsSucceeded, podsFailed, nodes,
                nodePools, null);
    }

    /** Pods that count toward Kueue's PodsReady: ready ones (running ones when not reported) and succeeded ones. */
    public int podsReadyOrSucceeded() {
        return (podsReady == null ? podsRunning : podsReady) + podsSucceeded;
    }
}
