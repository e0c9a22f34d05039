package dev.platform.api.agent;

import java.time.Instant;

/**
 * One decision of the platform about a workload of the agent's cluster, as
 * {@code GET /api/v1/agent/clusters/{cluster}/decisions?after=<id>} lists them: what the agent writes as a Kubernetes
 * Event on the workload's JobSet in the cluster, worded by the scheduler. {@code id} grows with every decision of the
 * platform (ids of other clusters' decisions are skipped); {@code jobSetUid} is the uid of the JobSet the workload
 * was submitted as in this cluster (applied to the cluster, not through the platform), else null: the JobSet the
 * platform created carries the workload's uid as its label. {@code type} is the Event's type, {@code Normal} or
 * {@code Warning}; {@code reason} its reason (Pending, QuotaReserved, Admitted, Preempted, Evicted, Requeued,
 * Hotswapped, Deactivated, Finished).
 */
public record AgentDecision(long id, Instant at, String workloadUid, String namespace, String name, String jobSetUid,
                            String type, String reason, String message) {
}
