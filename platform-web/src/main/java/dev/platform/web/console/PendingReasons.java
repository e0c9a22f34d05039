package dev.platform.web.console;

import java.util.Map;

/** Pending reason codes (design §5) in words, for people who do not know Kueue's vocabulary. */
public final class PendingReasons {

    private static final Map<String, String> WORDS = Map.ofEntries(
            Map.entry("WaitingForQuota", "Waiting for quota to free up"),
            Map.entry("WaitingForPreemptedWorkloads", "Waiting for preempted workloads to stop"),
            Map.entry("NoMatchingFlavor", "No flavor of the queue matches its requests"),
            Map.entry("ExceedsMaxQuota", "Asks for more than the queue can ever give"),
            Map.entry("WaitingForNodePool", "Quota is free; waiting for a healthy node pool"),
            Map.entry("QueueStopped", "The queue is stopped"),
            Map.entry("InadmissibleNamespace", "The ClusterQueue does not admit this namespace"),
            Map.entry("LocalQueueNotFound", "Its LocalQueue does not exist"),
            Map.entry("ClusterQueueInactive", "The ClusterQueue is inactive"),
            Map.entry("Blocked", "Blocked behind the head of a StrictFIFO queue"),
            Map.entry("Deactivated", "Stopped (deactivated): out of its queue until resumed"));

    private PendingReasons() {
    }

    /** The reason in words; a code this console does not know is shown as it is. */
    public static String describe(String code) {
        if (code == null) {
            return "Waiting for the scheduler";
        }
        return WORDS.getOrDefault(code, code);
    }
}
