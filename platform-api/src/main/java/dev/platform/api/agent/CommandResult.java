package dev.platform.api.agent;

import java.time.Instant;

/**
 * Body of {@code POST /api/v1/agent/clusters/{cluster}/commands/{id}/result}. A final status
 * acknowledges the command: the scheduler records it as the cluster's last acknowledged id.
 * {@code eviction} is null for commands that evict nothing.
 */
public record CommandResult(
        long commandId,
        CommandStatus status,
        String message,
        EvictionProgress eviction,
        String agentId,
        Instant at) {
}
