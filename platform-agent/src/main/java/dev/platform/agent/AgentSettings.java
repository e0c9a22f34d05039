package dev.platform.agent;

import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.scheduler.Backoff;
import java.net.URI;
import java.time.Duration;

/**
 * What an agent needs to talk to its scheduler. {@code agentId} names this process in reports
 * and results (pod name in a cluster). {@code coalescingWindow} bounds how long a change waits
 * to travel with the changes that follow it.
 */
public record AgentSettings(
        URI schedulerUrl,
        String cluster,
        String token,
        String agentId,
        Duration coalescingWindow,
        int commandWaitSeconds,
        Backoff schedulerBackoff,
        EvictionPolicy evictionPolicy) {

    public static AgentSettings of(URI schedulerUrl, String cluster, String token, String agentId) {
        return new AgentSettings(schedulerUrl, cluster, token, agentId, Duration.ofMillis(100), 30,
                Backoff.SCHEDULER, EvictionPolicy.DEFAULT);
    }
}
