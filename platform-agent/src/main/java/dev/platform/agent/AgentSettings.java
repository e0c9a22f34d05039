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
 * {@code commandWorkers} is how many workloads' commands run at once (each workload's in order).
 * {@code fullReportInterval} is how often the agent sends a FULL report even when nothing failed: the
 * scheduler reconciles with the cluster's whole picture (a JobSet gone from it, one it does not know) only
 * on a FULL report.
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
        Duration heartbeat,
        int commandWorkers,
        Duration fullReportInterval) {

    /** A third of the scheduler's default staleness window. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(10);
    /**
     * Enough that the scheduler's answers to polls and results, not the workers, bound the rate: a worker
     * waits for its result to be recorded before its workload's next command, and results travel in batches.
     */
    public static final int DEFAULT_COMMAND_WORKERS = 64;
    /** A JobSet gone from the cluster is noticed within this (and the scheduler's grace). */
    public static final Duration DEFAULT_FULL_REPORT_INTERVAL = Duration.ofSeconds(60);

    public AgentSettings {
        if (commandWorkers < 1) {
            throw new IllegalArgumentException("commandWorkers must be at least 1, not " + commandWorkers);
        }
        if (fullReportInterval.isNegative() || fullReportInterval.isZero()) {
            throw new IllegalArgumentException("fullReportInterval must be positive, not " + fullReportInterval);
        }
    }

    /** Settings with {@link #DEFAULT_FULL_REPORT_INTERVAL}. */
    public AgentSettings(URI schedulerUrl, String cluster, String token, String agentId, Duration coalescingWindow,
                         int commandWaitSeconds, Backoff schedulerBackoff, EvictionPolicy evictionPolicy,
                         Duration heartbeat, int commandWorkers) {
        this(schedulerUrl, cluster, token, agentId, coalescingWindow, commandWaitSeconds, schedulerBackoff,
                evictionPolicy, heartbeat, commandWorkers, DEFAULT_FULL_REPORT_INTERVAL);
    }

    /** These settings with FULL reports every {@code interval}. */
    public AgentSettings withFullReportInterval(Duration interval) {
        return new AgentSettings(schedulerUrl, cluster, token, agentId, coalescingWindow, commandWaitSeconds,
                schedulerBackoff, evictionPolicy, heartbeat, commandWorkers, interval);
    }

    /** Settings with {@link #DEFAULT_COMMAND_WORKERS}. */
    public AgentSettings(URI schedulerUrl, String cluster, String token, String agentId, Duration coalescingWindow,
                         int commandWaitSeconds, Backoff schedulerBackoff, EvictionPolicy evictionPolicy,
                         Duration heartbeat) {
        this(schedulerUrl, cluster, token, agentId, coalescingWindow, commandWaitSeconds, schedulerBackoff,
                evictionPolicy, heartbeat, DEFAULT_COMMAND_WORKERS);
    }

    public static AgentSettings of(URI schedulerUrl, String cluster, String token, String agentId) {
        return new AgentSettings(schedulerUrl, cluster, token, agentId, Duration.ofMillis(100), 30,
                Backoff.SCHEDULER, EvictionPolicy.DEFAULT, DEFAULT_HEARTBEAT);
    }
}
