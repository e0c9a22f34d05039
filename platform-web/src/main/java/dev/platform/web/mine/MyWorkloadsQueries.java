package dev.platform.web.mine;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.WorkloadLine;

import java.util.List;

/** The workloads of the caller's teams for the "My workloads" page, newest first, a keyset page at a time. */
public interface MyWorkloadsQueries {

    /**
     * What the page filters on: {@code mine} keeps the workloads the caller submitted (else every workload of their
     * teams' namespaces); {@code state}, {@code namespace} and {@code queue} are null for any.
     */
    record Filter(boolean mine, String state, String namespace, String queue) {
    }

    /** One page; {@code next} is the cursor of the following page, null on the last. */
    record Page(List<WorkloadLine> items, String next) {
    }

    /** @param cursor null for the first page */
    Page workloads(Caller caller, Filter filter, String cursor, int limit);
}
