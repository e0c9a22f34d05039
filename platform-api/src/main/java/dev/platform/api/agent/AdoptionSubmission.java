package dev.platform.api.agent;

import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * A JobSet or batch Job created directly in the cluster, suspended and carrying kueue.x-k8s.io/queue-name
 * (label or annotation): Kueue users' way to submit. The scheduler turns it into a workload,
 * deduplicated by {@code jobSetUid} (the object's uid, a Job's too); {@code manifest} is the object as the API
 * server returned it, its {@code kind} saying which.
 */
public record AdoptionSubmission(
        String namespace,
        String name,
        String jobSetUid,
        String queueName,
        Instant createdAt,
        JsonNode manifest) {
}
