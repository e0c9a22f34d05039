package dev.platform.web.team;

import dev.platform.web.console.LocalQueueView;
import dev.platform.web.console.QueueUsageView;
import dev.platform.web.console.WorkloadLine;

import java.util.List;

/** What the team quota page reads: a namespace's LocalQueues, their ClusterQueues' usage, its workloads. */
public interface TeamQueries {

    /** The namespaces that have LocalQueues, sorted. */
    List<String> namespaces();

    /** The namespace's queues and the first {@code workloadLimit} of its workloads, newest first. */
    TeamView team(String namespace, int workloadLimit);

    /** Sampled usage of the namespace's ClusterQueues over the last day, oldest sample first. */
    List<UsageSeries> usageHistory(String namespace);

    /** One ClusterQueue, flavor and resource over time; quantities in the resource's units. */
    record UsageSeries(String clusterQueue, String flavor, String resource, String nominalQuota,
                       List<UsagePoint> points) {
    }

    record UsagePoint(java.time.Instant at, double used, double nominal) {
    }

    /** {@code moreWorkloads} tells that the namespace has workloads beyond the first page. */
    record TeamView(String namespace, List<LocalQueueView> localQueues, List<QueueUsageView> clusterQueues,
                    List<WorkloadLine> workloads, boolean moreWorkloads) {
    }
}
