package dev.platform.scheduler.workload;

import dev.platform.api.agent.GkeLabels;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A workload as stored: what the scheduling loop and the status API read. */
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
        StoredAdmission admission,
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
        Integer maximumExecutionTimeSeconds) {

    /** Whether JobSet's exclusive-topology annotation asks one whole node pool per replicated-job replica. */
    public boolean exclusiveNodePools() {
        return GkeLabels.NODE_POOL.equals(exclusiveTopology);
    }
}
