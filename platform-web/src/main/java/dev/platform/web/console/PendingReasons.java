package dev.platform.web.console;

import dev.platform.api.reason.WaitReason;
import dev.platform.api.reason.PendingReason;

/** Pending reason codes in words, for people who do not know Kueue's vocabulary. */
public final class PendingReasons {

    private PendingReasons() {
    }

    /** The reason in words; the eviction that requeued a workload with backoff is shown by its name. */
    public static String describe(WaitReason reason) {
        if (reason == null) {
            return "Waiting for the scheduler";
        }
        return reason instanceof PendingReason pending ? inWords(pending) : reason.name();
    }

    private static String inWords(PendingReason reason) {
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
            case WaitingForMinimumRuntime -> "Waiting for the workloads it would preempt to reach their minimum runtime";
            case Deactivated -> "Deactivated (stopped): out of its queue until resumed";
        };
    }
}
