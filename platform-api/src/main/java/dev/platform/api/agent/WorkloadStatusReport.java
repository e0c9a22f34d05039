package dev.platform.api.agent;

import java.util.List;

/**
 * Pod and JobSet status of one platform workload (JobSet label platform.dev/workload-uid).
 * {@code nodes} and {@code nodePools} are where its pods are bound, sorted.
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
        List<String> nodePools) {

    public WorkloadStatusReport {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    }
}
