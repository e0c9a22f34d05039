package dev.platform.scheduler.config;

import dev.platform.api.manifest.ClusterQueueManifest;

import java.util.List;

/** A ClusterQueue as the API shows it: its spec with defaults applied, and its status. */
public record ClusterQueueView(String name, ClusterQueueManifest spec, ClusterQueueStatus status) {

    static ClusterQueueView of(ClusterQueueManifest queue, List<String> missingFlavors) {
        return new ClusterQueueView(queue.name(), queue, ClusterQueueStatus.of(queue.stopPolicy().name(), missingFlavors));
    }
}
