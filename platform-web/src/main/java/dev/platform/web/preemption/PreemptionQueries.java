package dev.platform.web.preemption;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.PreemptionView;

import java.time.Instant;
import java.util.List;

/** What the preemption audit reads: one keyset page of the filtered history, newest first. */
public interface PreemptionQueries {

    /**
     * Preemptions touching the namespaces the caller leads (every one for Ops and Admin); the other
     * party, when it is another team's workload, is not named.
     *
     * @param cursor the {@code next} of the previous page, or null for the first
     * @throws IllegalArgumentException when the cursor is not one this port issued
     */
    PreemptionPage page(Caller caller, PreemptionSearch search, String cursor, int limit);

    /** Filters; every field is optional; {@code until} is exclusive. */
    record PreemptionSearch(String clusterQueue, String namespace, String reason, Instant since, Instant until) {
    }

    /** {@code next} is the cursor of the following page, null on the last. */
    record PreemptionPage(List<PreemptionView> items, String next) {
    }
}
