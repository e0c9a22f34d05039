package dev.platform.scheduler.workload;

import dev.platform.api.agent.GkeLabels;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A workload as stored: what the scheduling loop and the status API read. {@code active} is Kueue's spec.active: an
 * inactive workload is Pending, holds no quota and is in no queue until it is activated again.
 */
public record WorkloadRow(
        UUID uid,
        String namespace,
        String name,
        String kind,
        String queueName,
        String clusterQueue,
        String priorityClassName,
        int priority,
        WorkloadState state,
        List<PodSetSpec> podSets,
        WorkloadStatus.Admission admission,
        String pendingReason,
        String pendingMessage,
        Instant queueTimestamp,
        Instant createdAt,
        Instant admittedAt,
        Instant finishedAt,
        int restarts,
        long version,
        long changeSeq,
        String exclusiveTopology,
        String cluster,
        Integer maxRestarts,
        Integer maximumExecutionTimeSeconds,
        boolean active) {

    /** Whether JobSet's exclusive-topology annotation asks one whole node pool per replicated-job replica. */
    public boolean exclusiveNodePools() {
        return GkeLabels.NODE_POOL.equals(exclusiveTopology);
    }
}
