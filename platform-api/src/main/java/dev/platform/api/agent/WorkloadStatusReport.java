package dev.platform.api.agent;

import java.time.Instant;
import java.util.List;

/**
 * Pod and JobSet (or Job) status of one platform workload (its label platform.dev/workload-uid); {@code jobSetName}
 * is the JobSet's or Job's name.
 * {@code nodes} and {@code nodePools} are where its pods are bound, sorted. {@code podsReady}
 * counts the running pods whose Ready condition is True; null from agents that do not report it,
 * for which the scheduler reads running pods as ready. {@code lastCheckpoint} is the JobSet's annotation
 * {@code platform.dev/last-checkpoint} as the cluster holds it, so that a training job or its launcher records its
 * checkpoints in the cluster without a platform token; null when absent or not a time (and from older agents).
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
        Integer podsReady,
        Instant lastCheckpoint) {

    public WorkloadStatusReport {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    }

    /** A report without a last checkpoint. */
    public WorkloadStatusReport(String workloadUid, String namespace, String jobSetName, WorkloadPhase phase,
                                int podsPending, int podsRunning, int podsSucceeded, int podsFailed,
                                List<String> nodes, List<String> nodePools, Integer podsReady) {
        this(workloadUid, namespace, jobSetName, phase, podsPending, podsRunning, podsSucceeded, podsFailed, nodes,
                nodePools, podsReady, null);
    }

    /** A report without a count of ready pods (as agents before that field sent). */
    public WorkloadStatusReport(String workloadUid, String namespace, String jobSetName, WorkloadPhase phase,
                                int podsPending, int podsRunning, int podsSucceeded, int podsFailed,
                                List<String> nodes, List<String> nodePools) {
        this(workloadUid, namespace, jobSetName, phase, podsPending, podsRunning, podsSucceeded, podsFailed, nodes,
                nodePools, null, null);
    }

    /** Pods that count toward Kueue's PodsReady: ready ones (running ones when not reported) and succeeded ones. */
    public int podsReadyOrSucceeded() {
        return (podsReady == null ? podsRunning : podsReady) + podsSucceeded;
    }
}
