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
 * @param missingJobsetGrace how long after a cluster acknowledged starting a JobSet a FULL report of it must
 *                       come to tell that the JobSet is missing (its workload is then requeued, reason
 *                       JobSetMissing): a report received sooner may have been taken before the JobSet appeared
 *                       in the agent's watch
 * @param strayJobsets   what becomes of a JobSet the platform manages (its labels say so) that a FULL report shows
 *                       active in a cluster while the platform does not run it (the workload is unknown, or
 *                       Finished or Failed): Report (logged and counted only), Suspend (its pods evicted, the
 *                       JobSet kept, suspended, for its owner to look at; the default: it frees the chips the
 *                       platform counts as free, and loses nothing for good) or Delete
 * @param agentLiveness  how long after its last report the agent instance that speaks for a cluster counts as
 *                       alive: reports and command polls of another instance for that cluster are refused (409)
 *                       meanwhile. Longer than the agents' longest silence (their heartbeat, 10 s, and a half)
 * @param disruptionPercent  a FULL report lacking more than this share (in percent) of a cluster's running JobSets,
 *                       and at least platform.agents.disruption-minimum of them, marks the cluster disrupted: the requeues are
 *                       held until a later FULL report or an Ops or Admin user confirms them
 * @param disruptionMinimum  the fewest missing JobSets that can mark a cluster disrupted: fewer are requeued at once
 */
@ConfigurationProperties("platform.agents")
public record AgentsProperties(@DefaultValue("30s") Duration staleness,
                               @DefaultValue("60") int maxWaitSeconds,
                               @DefaultValue("500ms") Duration pollInterval,
                               @DefaultValue("5s") Duration missingJobsetGrace,
                               @DefaultValue("Suspend") StrayJobSetPolicy strayJobsets,
                               @DefaultValue("20s") Duration agentLiveness,
                               @DefaultValue("20") int disruptionPercent,
                               @DefaultValue("3") int disruptionMinimum) {

    public AgentsProperties {
        if (disruptionPercent < 0 || disruptionPercent > 100) {
            throw new IllegalArgumentException("platform.agents.disruption-percent must be between 0 and 100; got "
                    + disruptionPercent);
        }
    }

    /** What becomes of a JobSet the platform manages and does not run. */
    public enum StrayJobSetPolicy {
        /** Logged and counted; it keeps running. */
        Report,
        /** Suspended: its pods evicted (PodDisruptionBudgets respected), the JobSet kept. */
        Suspend,
        /** Deleted with its pods. */
        Delete
    }
}
