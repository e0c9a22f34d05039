package dev.platform.web.console;

import dev.platform.api.reason.WaitReason;
import java.time.Instant;

/** A workload in a list: where it queues, its state, and for a pending one its place and why it waits. */
public record WorkloadLine(String namespace, String name, String kind, String state, String queueName,
                           String clusterQueue, int priority, Integer positionInClusterQueue,
                           Integer positionInLocalQueue, WaitReason pendingReason, String pendingMessage,
                           Instant createdAt, Instant admittedAt) {

    public String pendingReasonText() {
        return PendingReasons.describe(pendingReason);
    }
}
