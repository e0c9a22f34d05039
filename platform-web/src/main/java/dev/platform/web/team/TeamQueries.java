package dev.platform.web.team;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.LocalQueueView;
import dev.platform.web.console.LostWorkView;
import dev.platform.web.console.QueueUsageView;
import dev.platform.web.console.WorkloadLine;

import java.util.List;
import java.util.Optional;

/** What the team quota page reads: a team's LocalQueues, their ClusterQueues' usage, its workloads. */
public interface TeamQueries {

    /** The teams whose page the caller may open (the teams they lead; every team for Ops and Admin), sorted. */
    List<String> teams(Caller caller);

    /** The team's namespaces and queues and the first {@code workloadLimit} of its workloads, newest first. */
    Optional<TeamView> team(String team, int workloadLimit);

    /**
     * The work the team's workloads lost to evictions of every kind (preemptions, hotswaps, drains, deactivations,
     * timeouts, node failures) over the last day and the last week, per accelerator resource, sorted by resource.
     */
    List<LostWorkTotal> lostWork(String team);

    /** Resource-seconds of one resource lost over the last day and over the last week (which includes the day). */
    record LostWorkTotal(String resource, double lastDaySeconds, double lastWeekSeconds) {

        public String lastDay() {
            return LostWorkView.chipHours(lastDaySeconds);
        }

        public String lastWeek() {
            return LostWorkView.chipHours(lastWeekSeconds);
        }
    }

    /** Sampled usage of the team's ClusterQueues over the last day, oldest sample first. */
    List<UsageSeries> usageHistory(String team);

    /** One ClusterQueue, flavor and resource over time; quantities in the resource's units. */
    record UsageSeries(String clusterQueue, String flavor, String resource, String nominalQuota,
                       List<UsagePoint> points) {
    }

    record UsagePoint(java.time.Instant at, double used, double nominal) {
    }

    /** {@code moreWorkloads} tells that the team has workloads beyond the first page. */
    record TeamView(String team, List<String> namespaces, List<LocalQueueView> localQueues,
                    List<QueueUsageView> clusterQueues, List<WorkloadLine> workloads, boolean moreWorkloads) {
    }
}
