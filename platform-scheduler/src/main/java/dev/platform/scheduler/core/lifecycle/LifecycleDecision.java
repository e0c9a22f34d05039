package dev.platform.scheduler.core.lifecycle;

import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
/** What the lifecycle timers decided for a workload holding quota: the adapter evicts it and records why. */
public sealed interface LifecycleDecision permits LifecycleDecision.Requeue, LifecycleDecision.Deactivate {

    String uid();

    String message();

    /** Kueue's {@code underlying_cause} of the eviction in its metrics (empty when none). */
    String underlyingCause();

    /**
     * Evict and queue again once {@code requeueState.requeueAt} has passed; {@code cause} is the PodsReady
     * condition a timeout hit (null for a failed start).
     */
    record Requeue(String uid, EvictionReason reason, PodsReady cause, RequeueState requeueState, String message)
            implements LifecycleDecision {

        @Override
        public String underlyingCause() {
            return cause == null ? "" : cause.name();
        }
    }

    /** Evict and set inactive: it is not queued again until activated. */
    record Deactivate(String uid, DeactivationReason reason, String message) implements LifecycleDecision {

        /** With Kueue's message on the Evicted condition of a deactivated workload. */
        static Deactivate of(String uid, DeactivationReason reason) {
            return new Deactivate(uid, reason, "The workload is deactivated due to " + reason.humanReadable());
        }

        @Override
        public String underlyingCause() {
            return reason.name();
        }
    }
}
