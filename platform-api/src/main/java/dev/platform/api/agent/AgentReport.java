package dev.platform.api.agent;

import java.time.Instant;
import java.util.List;

/**
 * Body of {@code POST /api/v1/agent/clusters/{cluster}/reports}.
 *
 * <p>{@code sequence} grows by one per report of an agent process ({@code agentId}); the
 * scheduler ignores a DELTA whose sequence is not above the last one it applied from that agent
 * and answers 409 when a DELTA arrives from an agent it has no FULL report of, upon which the
 * agent sends a FULL one. {@code removedNodePools} lists pools that lost their last node.
 *
 * <p>{@code leader} is true on every report but the last: an agent that stops leading (shut down, or its Lease
 * lost) sends an empty DELTA with {@code leader} false, which gives up its place as the cluster's voice, so the
 * next agent is heard at once instead of after the current one's silence.
 */
public record AgentReport(
        String cluster,
        String agentId,
        boolean leader,
        long sequence,
        Instant sentAt,
        ReportKind kind,
        List<NodePoolReport> nodePools,
        List<String> removedNodePools,
        List<WorkloadStatusReport> workloads,
        List<AdoptionSubmission> submissions) {

    public AgentReport {
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
        removedNodePools = removedNodePools == null ? List.of() : List.copyOf(removedNodePools);
        workloads = workloads == null ? List.of() : List.copyOf(workloads);
        submissions = submissions == null ? List.of() : List.copyOf(submissions);
    }
}
