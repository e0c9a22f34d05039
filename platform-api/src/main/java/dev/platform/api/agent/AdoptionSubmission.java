package dev.platform.api.agent;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * A JobSet created directly in the cluster, suspended and carrying kueue.x-k8s.io/queue-name
 * (label or annotation): Kueue users' way to submit. The scheduler turns it into a workload,
 * deduplicated by {@code jobSetUid}; {@code manifest} is the object as the API server returned it.
 */
public record AdoptionSubmission(
        String namespace,
        String name,
        String jobSetUid,
        String queueName,
        Instant createdAt,
        JsonNode manifest) {
}
