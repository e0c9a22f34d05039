package dev.platform.web.console;

import dev.platform.api.reason.PendingReason;

import java.util.Arrays;

/** Pending reason codes in words, for people who do not know Kueue's vocabulary. */
public final class PendingReasons {

    private PendingReasons() {
    }

    /** The reason in words; a code this console does not know is shown as it is. */
    public static String describe(String code) {
        if (code == null) {
            return "Waiting for the scheduler";
        }
        return Arrays.stream(PendingReason.values()).filter(r -> r.name().equals(code)).findFirst()
                .map(PendingReasons::describe).orElse(code);
    }

    static String describe(PendingReason reason) {
        return switch (reason) {
            case WaitingForQuota -> "Waiting for quota to free up";
            case WaitingForPreemptedWorkloads -> "Waiting for preempted workloads to stop";
            case NoMatchingFlavor -> "No flavor of the queue matches its requests";
            case ExceedsMaxQuota -> "Asks for more than the queue can ever give";
            case WaitingForNodePool -> "Quota is free; waiting for a healthy node pool";
            case QueueStopped -> "The queue is stopped";
            case InadmissibleNamespace -> "The ClusterQueue does not admit this namespace";
            case LocalQueueNotFound -> "Its LocalQueue does not exist";
            case ClusterQueueInactive -> "The ClusterQueue is inactive";
            case Blocked -> "Blocked behind the head of a StrictFIFO queue";
            case Deactivated -> "Deactivated (stopped): out of its queue until resumed";
        };
    }
}
