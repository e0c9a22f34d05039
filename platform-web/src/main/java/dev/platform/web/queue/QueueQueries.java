package dev.platform.web.queue;

import dev.platform.web.console.ForecastView;
import dev.platform.web.console.PendingReasons;
import dev.platform.web.console.PodSetPlacement;
import dev.platform.web.console.QueueUsageView;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What the queue pages read: a ClusterQueue's pending workloads in queue order and its admitted ones. */
public interface QueueQueries {

    List<String> clusterQueueNames();

    /** Active workloads without a queue name (priority-only mode), highest priority first, at most {@code limit}. */
    List<PriorityOnlyRow> priorityOnly(int limit);

    /** One page of the pending workloads from {@code offset}, and the admitted workloads (at most {@code limit}). */
    Optional<QueuePage> clusterQueue(String name, int offset, int limit);

    record QueuePage(QueueUsageView queue, List<PendingRow> pending, List<AdmittedRow> admitted) {
    }

    /** A pending workload with its 0-based positions, when it was queued, why it waits and when it should start. */
    record PendingRow(String namespace, String name, String localQueue, int priority, int positionInClusterQueue,
                      int positionInLocalQueue, Instant queuedAt, String reason, String reasonMessage,
                      ForecastView forecast) {

        public String reasonText() {
            return PendingReasons.describe(reason);
        }
    }

    /**
     * A workload outside Kueue's queues: placed by priority alone, on the node pools in
     * {@code podSets} once admitted, or waiting for {@code reason}.
     */
    record PriorityOnlyRow(String namespace, String name, String priorityClassName, int priority, String state,
                           String reason, String reasonMessage, List<PodSetPlacement> podSets) {

        /** There is no quota in this mode: waiting means no pool is free and nobody may be preempted. */
        public String reasonText() {
            return "WaitingForNodePool".equals(reason) ? "Waiting for a free node pool" : PendingReasons.describe(reason);
        }
    }

    /** A workload holding quota in the queue, with what admission gave each podset. */
    record AdmittedRow(String namespace, String name, String localQueue, int priority, String state,
                       Instant admittedAt, List<PodSetPlacement> podSets) {
    }
}
