package dev.platform.scheduler.cluster;

import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;

import java.time.Instant;
import java.util.UUID;

/**
 * Published after the commit of a command's final result (SUCCEEDED, FAILED, REFUSED_EXPIRED),
 * once per command: a redelivered result publishes nothing. {@code at} is when the scheduler
 * recorded it (for Hotswap MTTR phases). {@code transientFailure}: the agent said the failure may
 * pass when tried again later (false when it did not say).
 */
public record AgentCommandCompleted(String cluster, long id, CommandType type, UUID workloadUid,
                                    CommandStatus status, String message, Instant at, boolean transientFailure) {
}
