package dev.platform.scheduler.workload;

import dev.platform.api.agent.GkeLabels;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * A workload as stored: what the scheduling loop and the status API read. {@code active} is Kueue's spec.active: an
 * inactive workload is Pending, holds no quota and is in no queue until it is activated again. {@code submittedBy} is
 * the caller who submitted it; null when unknown (adopted from a cluster, or stored before submitters were kept).
 * {@code lastCheckpoint} is its annotation {@code platform.dev/last-checkpoint}: when it last wrote a checkpoint, null
 * when it never said.
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
        Integer maximumExecutionTimeSeconds,
        Lifecycle lifecycle,
        String submittedBy,
        Instant lastCheckpoint) {

    /** A row with the lifecycle of a workload just submitted, its submitter and last checkpoint unknown. */
    public WorkloadRow(UUID uid, String namespace, String name, String kind, String queueName, String clusterQueue,
                       String priorityClassName, int priority, WorkloadState state, List<PodSetSpec> podSets,
                       StoredAdmission admission, String pendingReason, String pendingMessage,
                       Instant queueTimestamp, Instant createdAt, Instant admittedAt, Instant finishedAt, int restarts,
                       long version, long changeSeq, String exclusiveTopology, String cluster, Integer maxRestarts,
                       Integer maximumExecutionTimeSeconds) {
        this(uid, namespace, name, kind, queueName, clusterQueue, priorityClassName, priority, state, podSets,
                admission, pendingReason, pendingMessage, queueTimestamp, createdAt, admittedAt, finishedAt, restarts,
                version, changeSeq, exclusiveTopology, cluster, maxRestarts, maximumExecutionTimeSeconds,
                Lifecycle.SUBMITTED, null, null);
    }

    /**
     * Kueue's {@code spec.active}, {@code status.requeueState} ({@code requeueCount}, {@code requeueAt}: null when
     * not backing off) and PodsReady condition (whether every pod is ready, and when that last changed: null while
     * the workload waits for its first start).
     */
    public record Lifecycle(boolean active, int requeueCount, Instant requeueAt, boolean podsReady,
                            Instant podsReadyChangedAt) {

        public static final Lifecycle SUBMITTED = new Lifecycle(true, 0, null, false, null);
    }

    /** Whether JobSet's exclusive-topology annotation asks one whole node pool per replicated-job replica. */
    public boolean exclusiveNodePools() {
        return GkeLabels.NODE_POOL.equals(exclusiveTopology);
    }
}
