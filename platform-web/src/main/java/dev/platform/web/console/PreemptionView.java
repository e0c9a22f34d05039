package dev.platform.web.console;

import java.time.Instant;

/**
 * One preemption of the audit: who preempted whom, when, and why; {@code lostWork} is what it cost the victim (null
 * for preemptions recorded before lost work was, and for a victim that was not admitted).
 */
public record PreemptionView(long id, Instant at, String reason, String message, Party preemptor, Party victim,
                             LostWorkView lostWork) {

    public PreemptionView(long id, Instant at, String reason, String message, Party preemptor, Party victim) {
        this(id, at, reason, message, preemptor, victim, null);
    }

    /** A workload on either side of a preemption, as it was at that moment. */
    public record Party(String namespace, String name, String uid, String clusterQueue, int priority) {
    }
}
