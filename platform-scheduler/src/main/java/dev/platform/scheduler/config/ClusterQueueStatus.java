package dev.platform.scheduler.config;

import java.util.List;

/**
 * Whether a ClusterQueue can admit, as Kueue reports it: inactive with reason
 * {@code FlavorNotFound} while a flavor it names does not exist, {@code Stopped} under a stop policy.
 */
public record ClusterQueueStatus(boolean active, String reason, String message, List<String> missingFlavors) {

    public static ClusterQueueStatus of(String stopPolicy, List<String> missingFlavors) {
        if (!missingFlavors.isEmpty()) {
            return new ClusterQueueStatus(false, "FlavorNotFound",
                    "Can't admit new workloads: references missing ResourceFlavor(s): " + String.join(", ", missingFlavors),
                    missingFlavors);
        }
        if (!"None".equals(stopPolicy)) {
            return new ClusterQueueStatus(false, "Stopped",
                    "Can't admit new workloads: the stop policy is " + stopPolicy, List.of());
        }
        return new ClusterQueueStatus(true, "Ready", "Can admit new workloads", List.of());
    }
}
