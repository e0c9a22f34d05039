package dev.platform.scheduler.config;

import dev.platform.api.manifest.ClusterQueueManifest;

import java.util.List;

/**
 * A ClusterQueue as the API shows it: its spec with defaults applied, its status, live usage per
 * flavor and resource, and how many workloads wait in it and hold quota in it.
 */
public record ClusterQueueView(String name, ClusterQueueManifest spec, ClusterQueueStatus status,
                               List<QueueUsage.ResourceUsage> usage, long pendingWorkloads, long admittedWorkloads) {

    static ClusterQueueView of(ClusterQueueManifest queue, List<String> missingFlavors, QueueUsage.Usage usage) {
        return new ClusterQueueView(queue.name(), queue, ClusterQueueStatus.of(queue.stopPolicy().name(), missingFlavors),
                usage.resources(), usage.pendingWorkloads(), usage.admittedWorkloads());
    }
}
