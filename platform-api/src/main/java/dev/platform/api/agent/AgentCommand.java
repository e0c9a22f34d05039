package dev.platform.api.agent;

import java.time.Duration;
import java.time.Instant;

/**
 * One element of the array answered by
 * {@code GET /api/v1/agent/clusters/{cluster}/commands?after=<id>&waitSeconds=<n>}.
 *
 * <p>{@code id} is the scheduler's outbox sequence for the cluster, increasing. {@code namespace}
 * and {@code name} identify the JobSet or Job. An agent refuses (REFUSED_EXPIRED) a command whose
 * {@code expiresAt} has passed, so a command delayed by an outage never acts on stale decisions.
 * {@code sentAt} is the scheduler's clock when it delivered the command: the agent measures the
 * time left, {@code expiresAt - sentAt}, from when it received the command on its own clock, so a
 * clock off by minutes neither expires every command nor runs stale ones.
 */
public record AgentCommand(
        long id,
        CommandType type,
        String workloadUid,
        String namespace,
        String name,
        Instant expiresAt,
        CommandPayload payload,
        Instant sentAt) {

    /** A command not stamped at delivery: its {@code expiresAt} is read on the agent's clock as it is. */
    public AgentCommand(long id, CommandType type, String workloadUid, String namespace, String name,
                        Instant expiresAt, CommandPayload payload) {
        this(id, type, workloadUid, namespace, name, expiresAt, payload, null);
    }

    /** This command as delivered at {@code now} by the scheduler's clock. */
    public AgentCommand sentAt(Instant now) {
        return new AgentCommand(id, type, workloadUid, namespace, name, expiresAt, payload, now);
    }

    /**
     * The same command with {@code expiresAt} moved onto the receiver's clock: received at
     * {@code receivedAt} there, it has what was left at sending. Unchanged without both instants.
     */
    public AgentCommand expiringOnReceiverClock(Instant receivedAt) {
        if (expiresAt == null || sentAt == null) {
            return this;
        }
        return new AgentCommand(id, type, workloadUid, namespace, name,
                receivedAt.plus(Duration.between(sentAt, expiresAt)), payload, sentAt);
    }
}
