package dev.platform.api.agent;

import java.time.Instant;

/**
 * Body of {@code POST /api/v1/agent/clusters/{cluster}/commands/{id}/result}. A final status
 * acknowledges the command: the scheduler records it as the cluster's last acknowledged id.
 * {@code eviction} is null for commands that evict nothing. {@code transientFailure} tells, for a
 * FAILED result, whether the failure may pass if the command is tried again later (an API server
 * error or timeout, 5xx, 429, a conflict) rather than refuse the same way (an invalid JobSet, a
 * missing namespace, a validation 4xx); absent (agents that do not say) means not transient.
 */
public record CommandResult(
        long commandId,
        CommandStatus status,
        String message,
        EvictionProgress eviction,
        String agentId,
        Instant at,
        Boolean transientFailure) {

    /** A result that says nothing of whether a failure is transient (as agents before that field did). */
    public CommandResult(long commandId, CommandStatus status, String message, EvictionProgress eviction,
                         String agentId, Instant at) {
        this(commandId, status, message, eviction, agentId, at, null);
    }

    /** Whether the agent said the failure may pass when tried again later. */
    public boolean failedTransiently() {
        return status == CommandStatus.FAILED && Boolean.TRUE.equals(transientFailure);
    }
}
