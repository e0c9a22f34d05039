package dev.platform.scheduler.preemption;

import java.time.Instant;

/** One preemption as the audit API shows it (design §8). */
public record PreemptionEvent(long id, Instant at, String reason, String message, Party preemptor, Party victim) {

    /** A workload on either side of a preemption, as it was at that moment. */
    public record Party(String namespace, String name, String uid, String clusterQueue, int priority) {
    }
}
