package dev.platform.api.agent;

import java.time.Instant;

/**
 * One element of the array answered by
 * {@code GET /api/v1/agent/clusters/{cluster}/commands?after=<id>&waitSeconds=<n>}.
 *
 * <p>{@code id} is the scheduler's outbox sequence for the cluster, increasing. {@code namespace}
 * and {@code name} identify the JobSet. An agent refuses (REFUSED_EXPIRED) a command whose
 * {@code expiresAt} has passed, so a command delayed by an outage never acts on stale decisions.
 */
public record AgentCommand(
        long id,
        CommandType type,
        String workloadUid,
        String namespace,
        String name,
        Instant expiresAt,
        CommandPayload payload) {
}
