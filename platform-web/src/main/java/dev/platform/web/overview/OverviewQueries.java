package dev.platform.web.overview;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.PreemptionView;
import dev.platform.web.console.QueueUsageView;

import java.util.List;

/**
 * What the overview reads, as a port: the scheduler application implements it over PostgreSQL in
 * a fixed number of queries; the console never touches scheduler internals.
 */
public interface OverviewQueries {

    /**
     * The ClusterQueues the caller sees (all for Ops and Admin; else those their teams' LocalQueues point to)
     * and, for a lead, the latest preemptions touching their teams, other teams' workloads unnamed.
     */
    Overview overview(Caller caller, int latestPreemptions);

    /** Cohorts with their member queues, queues outside any cohort, and the latest preemptions. */
    record Overview(List<CohortUsage> cohorts, List<QueueUsageView> standaloneQueues,
                    List<PreemptionView> latestPreemptions) {

        public boolean isEmpty() {
            return cohorts.isEmpty() && standaloneQueues.isEmpty();
        }
    }

    /** A cohort (an object, or implicit when only named by queues) and its member ClusterQueues. */
    record CohortUsage(String name, String parentName, List<QueueUsageView> clusterQueues) {
    }
}
