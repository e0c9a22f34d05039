package dev.platform.scheduler.core;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * When each ClusterQueue last changed, as a counter: every change that can alter when a ClusterQueue's workloads are
 * admitted (a workload submitted, admitted, finished, evicted or removed) stamps the queue with the next value; a
 * configuration change stamps everything. The forecast recomputes only the cohort trees stamped since it last looked.
 */
final class ChangeStamps {

    private long changes;
    private final Map<String, Long> changedAt = new HashMap<>();
    private long configurationChangedAt;

    void clusterQueueChanged(String clusterQueue) {
        changedAt.put(clusterQueue, ++changes);
    }

    void configurationChanged() {
        configurationChangedAt = ++changes;
    }

    /** The latest stamp of the given ClusterQueues and the configuration. */
    long lastChange(Collection<String> clusterQueues) {
        long last = configurationChangedAt;
        for (String cq : clusterQueues) {
            last = Math.max(last, changedAt.getOrDefault(cq, 0L));
        }
        return last;
    }
}
