package dev.platform.agent.report;

import dev.platform.api.agent.AdoptionSubmission;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.WorkloadStatusReport;
import java.util.List;

/** The payload of one report, full or delta. */
public record ReportContent(
        List<NodePoolReport> nodePools,
        List<String> removedNodePools,
        List<WorkloadStatusReport> workloads,
        List<AdoptionSubmission> submissions) {

    public boolean isEmpty() {
        return nodePools.isEmpty() && removedNodePools.isEmpty() && workloads.isEmpty() && submissions.isEmpty();
    }
}
