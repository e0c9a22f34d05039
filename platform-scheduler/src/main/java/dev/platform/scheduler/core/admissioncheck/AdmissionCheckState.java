package dev.platform.scheduler.core.admissioncheck;

import java.time.Instant;

/**
 * One entry of Kueue's {@code status.admissionChecks}: a check's state on a workload, the message its controller
 * gave, when the state last changed, how many times it was retried ({@code retryCount}, counted when a workload
 * evicted for it is requeued) and, in Retry, how long the workload waits before it queues again
 * ({@code requeueAfterSeconds}, null when the controller gave none).
 */
public record AdmissionCheckState(String name, CheckState state, String message, Instant lastTransitionTime,
                                  int retryCount, Integer requeueAfterSeconds) {

    public AdmissionCheckState {
        message = message == null ? "" : message;
    }

    /** A check just assigned to a workload. */
    public static AdmissionCheckState pending(String name, Instant at) {
        return new AdmissionCheckState(name, CheckState.Pending, "", at, 0, null);
    }

    /**
     * This check moved to {@code next} with {@code message} (Kueue's SetAdmissionCheckState): the transition time
     * changes only with the state; the retry count stays.
     */
    public AdmissionCheckState to(CheckState next, String message, Integer requeueAfterSeconds, Instant at) {
        return new AdmissionCheckState(name, next, message, next == state ? lastTransitionTime : at, retryCount,
                requeueAfterSeconds);
    }

    /**
     * Kueue's resetChecksOnEviction: after the workload's eviction every check is Pending again; one in Retry counts
     * one more retry, the others start over.
     */
    public AdmissionCheckState resetOnEviction(Instant at) {
        if (state == CheckState.Pending) {
            return this;
        }
        return new AdmissionCheckState(name, CheckState.Pending, "Reset to Pending after eviction. Previously: " + state,
                at, state == CheckState.Retry ? retryCount + 1 : 0, requeueAfterSeconds);
    }
}
