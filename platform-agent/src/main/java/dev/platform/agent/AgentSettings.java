package dev.platform.agent;

import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.scheduler.Backoff;
import java.net.URI;
import java.time.Duration;

/**
 * What an agent needs to talk to its scheduler. {@code agentId} names this process in reports
 * and results (pod name in a cluster). {@code coalescingWindow} bounds how long a change waits
 * to travel with the changes that follow it. {@code heartbeat} is the longest the agent stays
 * silent: a quiet cluster still reports that often, well inside the scheduler's staleness window
 * ({@code platform.agents.staleness}, 30 s), past which its pools count as Unknown.
 */
public record AgentSettings(
        URI schedulerUrl,
        String cluster,
        String token,
        String agentId,
        Duration coalescingWindow,
        int commandWaitSeconds,
        Backoff schedulerBackoff,
        EvictionPolicy evictionPolicy,
        Duration heartbeat) {

    /** A third of the scheduler's default staleness window. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(10);

    public static AgentSettings of(URI schedulerUrl, String cluster, String token, String agentId) {
        return new AgentSettings(schedulerUrl, cluster, token, agentId, Duration.ofMillis(100), 30,
                Backoff.SCHEDULER, EvictionPolicy.DEFAULT, DEFAULT_HEARTBEAT);
    }
}
