package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.api.manifest.decode.KubernetesNames;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a report must be before any of it is applied (its lists hold no nulls: the records refuse
 * them). A report no agent could have sent (negative counts, a pool or node without a name or
 * state, a pool listed twice, a workload without a phase or named as no Kubernetes object can be)
 * is refused whole, so a lying or broken agent changes nothing. Facts that are well formed but not
 * this cluster's to report (another cluster's workload, a pool it has not reported) are ignored item
 * by item by {@link AgentReportService}.
 */
final class AgentReportChecks {

    private AgentReportChecks() {
    }

    /** The report's problems, empty when it may be applied. */
    static List<String> problems(AgentReport report) {
        List<String> problems = new ArrayList<>();
        if (report.sequence() < 0) {
            problems.add("sequence " + report.sequence() + " is negative");
        }
        Set<String> pools = new HashSet<>();
        for (int p = 0; p < report.nodePools().size(); p++) {
            NodePoolReport pool = report.nodePools().get(p);
            String at = "nodePools[" + p + "]";
            if (blank(pool.name())) {
                problems.add(at + ".name is required");
            } else if (!pools.add(pool.name())) {
                problems.add(at + ": pool " + pool.name() + " is listed twice");
            }
            if (pool.state() == null) {
                problems.add(at + ".state is required");
            }
            for (int n = 0; n < pool.nodes().size(); n++) {
                node(pool.nodes().get(n), at + ".nodes[" + n + "]", problems);
            }
        }
        if (report.removedNodePools().stream().anyMatch(AgentReportChecks::blank)) {
            problems.add("removedNodePools holds an empty name");
        }
        for (int w = 0; w < report.workloads().size(); w++) {
            workload(report.workloads().get(w), "workloads[" + w + "]", problems);
        }
        return problems;
    }

    private static void node(NodeReport node, String at, List<String> problems) {
        if (blank(node.name())) {
            problems.add(at + ".name is required");
        }
        if (node.state() == null) {
            problems.add(at + ".state is required");
        }
        if (node.chipCapacity() < 0 || node.chipAllocatable() < 0) {
            problems.add(at + ": chip counts must not be negative (capacity " + node.chipCapacity()
                    + ", allocatable " + node.chipAllocatable() + ")");
        }
        if (node.chipAllocatable() > node.chipCapacity()) {
            problems.add(at + ": " + node.chipAllocatable() + " allocatable chips are more than its capacity of "
                    + node.chipCapacity());
        }
    }

    private static void workload(WorkloadStatusReport status, String at, List<String> problems) {
        if (status.phase() == null) {
            problems.add(at + ".phase is required");
        }
        if (status.podsPending() < 0 || status.podsRunning() < 0 || status.podsSucceeded() < 0
                || status.podsFailed() < 0) {
            problems.add(at + ": pod counts must not be negative (pending " + status.podsPending() + ", running "
                    + status.podsRunning() + ", succeeded " + status.podsSucceeded() + ", failed "
                    + status.podsFailed() + ")");
        }
        // names the platform stores and sends back in commands: a cluster holds no object of another name
        if (status.namespace() != null) {
            KubernetesNames.labelProblem(status.namespace())
                    .ifPresent(problem -> problems.add(at + ".namespace: " + problem));
        }
        if (status.jobSetName() != null) {
            KubernetesNames.subdomainProblem(status.jobSetName())
                    .ifPresent(problem -> problems.add(at + ".jobSetName: " + problem));
        }
        if (status.nodes().stream().anyMatch(AgentReportChecks::blank)
                || status.nodePools().stream().anyMatch(AgentReportChecks::blank)) {
            problems.add(at + ": node and pool names must not be empty");
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
