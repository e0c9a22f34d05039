package dev.platform.scheduler.preemption;

import dev.platform.api.identity.Caller;
import java.time.Instant;
import java.util.UUID;

/**
 * One preemption as the audit API shows it. {@code lostWork} is what it cost the victim (null for events recorded
 * before lost work was, or for a victim that was not admitted).
 */
public record PreemptionEvent(long id, Instant at, String reason, String message, Party preemptor, Party victim,
                              LostWork lostWork) {

    public PreemptionEvent(long id, Instant at, String reason, String message, Party preemptor, Party victim) {
        this(id, at, reason, message, preemptor, victim, null);
    }

    public PreemptionEvent withLostWork(LostWork work) {
        return new PreemptionEvent(id, at, reason, message, preemptor, victim, work);
    }

    /** Said in place of the message when one side is another team's workload: the message names its queue. */
    static final String OTHER_TEAM_MESSAGE = "The other workload belongs to another team; its name and queue are"
            + " not shown.";

    /** A workload on either side of a preemption, as it was at that moment. */
    public record Party(String namespace, String name, UUID uid, String clusterQueue, int priority) {

        /** Another team's workload: its uid and priority stay (they name nothing), the rest goes. */
        Party unnamed() {
            return new Party(null, null, uid, null, priority);
        }
    }

    /** The event as {@code caller} may see it: a party in a namespace they do not read is unnamed. */
    public PreemptionEvent seenBy(Caller caller) {
        boolean preemptorVisible = caller.mayRead(preemptor.namespace());
        boolean victimVisible = caller.mayRead(victim.namespace());
        if (preemptorVisible && victimVisible) {
            return this;
        }
        return new PreemptionEvent(id, at, reason, OTHER_TEAM_MESSAGE,
                preemptorVisible ? preemptor : preemptor.unnamed(), victimVisible ? victim : victim.unnamed(), lostWork);
    }
}
