package dev.platform.web.overview;

import java.util.List;

/**
 * What the console reads, as a port: the scheduler application implements it over PostgreSQL,
 * the console never touches scheduler internals (design §3).
 */
public interface ConsoleQueries {

    List<ClusterQueueSummary> clusterQueues();

    /** One ClusterQueue as the overview lists it. */
    record ClusterQueueSummary(String name, String cohort, String queueingStrategy, boolean active, String statusReason,
                               List<QuotaLine> quotas) {
    }

    /** Quota of one resource in one flavor, as the user wrote the quantities. */
    record QuotaLine(String flavor, String resource, String nominalQuota, String borrowingLimit, String lendingLimit) {
    }
}
