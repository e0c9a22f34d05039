package dev.platform.scheduler.cluster;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Settings of the agent gateway ({@code platform.agents.*}).
 *
 * @param staleness      a cluster whose last report is older is stale: its pools are Unknown (nothing is
 *                       evicted on stale data)
 * @param maxWaitSeconds the longest a command poll is held open, whatever {@code waitSeconds} asks
 * @param pollInterval   how often a held poll looks in the database for commands enqueued by
 *                       another replica (this replica's own enqueues answer it at once)
 * @param missingJobSetGrace how long after a FULL report that lacks a JobSet its cluster had acknowledged
 *                       starting the platform waits before it requeues the workload (reason JobSetMissing): a
 *                       report built a moment before the JobSet appeared in the agent's watch is followed by one
 *                       that has it well within this
 */
@ConfigurationProperties("platform.agents")
public record AgentsProperties(@DefaultValue("30s") Duration staleness,
                               @DefaultValue("60") int maxWaitSeconds,
                               @DefaultValue("500ms") Duration pollInterval,
                               @DefaultValue("5s") Duration missingJobSetGrace) {
}
