package dev.platform.web.console;

import java.time.Instant;

/** One preemption of the audit: who preempted whom, when, and why. */
public record PreemptionView(long id, Instant at, String reason, String message, Party preemptor, Party victim) {

    /** A workload on either side of a preemption, as it was at that moment. */
    public record Party(String namespace, String name, String uid, String clusterQueue, int priority) {
    }
}
