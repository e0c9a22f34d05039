package dev.platform.web.console;

import java.util.List;

/**
 * A ClusterQueue as the console shows it: its status, its usage per flavor and resource, and how
 * many workloads wait in it and hold quota in it.
 */
public record QueueUsageView(String name, String cohort, String queueingStrategy, boolean active, String statusReason,
                             List<ResourceUsageView> resources, long pendingWorkloads, long admittedWorkloads) {
}
