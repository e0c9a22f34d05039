package dev.platform.scheduler.scheduling;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * Settings of the scheduling loop ({@code platform.scheduler.*}).
 *
 * @param enabled          whether this replica competes for leadership and runs cycles
 * @param fairSharing      Kueue's fair sharing (dominant resource share), global switch
 * @param pollInterval     how long an idle leader waits before looking for changes made by other
 *                         replicas (changes made by this one wake it at once)
 * @param leaderRetry      how often a follower tries for leadership
 * @param leaderLease      how long a leader may go without renewing before a follower ends its
 *                         session (and with it the advisory lock) and takes over: a paused or hung
 *                         leader would otherwise keep the lock; it renews every fifth of this
 */
@ConfigurationProperties("platform.scheduler")
public record SchedulingProperties(@DefaultValue("true") boolean enabled,
                                   @DefaultValue FairSharing fairSharing,
                                   @DefaultValue("200ms") Duration pollInterval,
                                   @DefaultValue("1s") Duration leaderRetry,
                                   @DefaultValue("10s") Duration leaderLease) {

    /**
     * Kueue's fair sharing.
     *
     * @param enabled preempt and order by dominant resource share within cohorts, for every ClusterQueue
     */
    public record FairSharing(@DefaultValue("false") boolean enabled) {
    }
}
