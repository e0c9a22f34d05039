package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.AdmissionFairSharing;
import dev.platform.scheduler.core.SchedulerSettings;
import dev.platform.scheduler.core.lifecycle.RequeuingTimestamp;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.Map;

/**
 * Settings of the scheduling loop ({@code platform.scheduler.*}).
 *
 * @param enabled          whether this replica competes for leadership and runs cycles
 * @param fairSharing      Kueue's fair sharing (dominant resource share), global switch
 * @param admissionFairSharing Kueue's admissionFairSharing block: null when no property of it is
 *                         set, and then no ClusterQueue orders by LocalQueue usage, whatever its
 *                         {@code admissionScope} says (as in Kueue)
 * @param pollInterval     how long an idle leader waits before looking for changes made by other
 *                         replicas (changes made by this one wake it at once)
 * @param leaderRetry      how often a follower tries for leadership
 * @param leaderLease      how long a leader may go without renewing before a follower ends its
 *                         session (and with it the advisory lock) and takes over: a paused or hung
 *                         leader would otherwise keep the lock; it renews every fifth of this
 * @param waitForPodsReady Kueue's waitForPodsReady: evict and requeue admitted workloads whose pods do not
 *                         all get ready in time
 */
@ConfigurationProperties("platform.scheduler")
public record SchedulingProperties(@DefaultValue("true") boolean enabled,
                                   @DefaultValue FairSharing fairSharing,
                                   AdmissionFairSharingSettings admissionFairSharing,
                                   @DefaultValue("200ms") Duration pollInterval,
                                   @DefaultValue("1s") Duration leaderRetry,
                                   @DefaultValue("10s") Duration leaderLease,
                                   @DefaultValue WaitForPodsReady waitForPodsReady) {

    /**
     * Kueue's fair sharing.
     *
     * @param enabled preempt and order by dominant resource share within cohorts, for every ClusterQueue
     */
    public record FairSharing(@DefaultValue("false") boolean enabled) {
    }

    /**
     * Kueue's waitForPodsReady, with Kueue 0.19's defaults.
     *
     * @param enable            evict (reason PodsReadyTimeout) and requeue an admitted workload whose pods are not all
     *                          ready within the timeout of its admission, or that stopped being ready for longer than
     *                          the recovery timeout
     * @param timeout           how long an admitted workload's pods may take to be all ready
     * @param recoveryTimeout   how long a running workload's pods may stay not all ready; unset: the timeout; 0s: no
     *                          limit
     * @param requeuingStrategy how an evicted workload is requeued (also a START that failed transiently)
     */
    public record WaitForPodsReady(@DefaultValue("true") boolean enable,
                                   @DefaultValue("30m") Duration timeout,
                                   Duration recoveryTimeout,
                                   @DefaultValue RequeuingStrategy requeuingStrategy) {

        /** These settings as the core's lifecycle timers take them. */
        public dev.platform.scheduler.core.lifecycle.WaitForPodsReady settings() {
            return new dev.platform.scheduler.core.lifecycle.WaitForPodsReady(enable, timeout,
                    recoveryTimeout == null ? timeout : recoveryTimeout, requeuingStrategy.settings());
        }
    }

    /**
     * Kueue's waitForPodsReady.requeuingStrategy: the n-th requeue waits backoffBaseSeconds * 2^(n-1), at most
     * backoffMaxSeconds.
     *
     * @param timestamp          the requeued workload's place in its queue: Eviction (the eviction time) or Creation
     *                           (its original place)
     * @param backoffBaseSeconds the first requeue's wait, in seconds
     * @param backoffMaxSeconds  the longest wait, in seconds
     * @param backoffLimitCount  requeues after which the next timeout deactivates the workload (reason
     *                           RequeuingLimitExceeded); unset: no limit
     */
    public record RequeuingStrategy(@DefaultValue("Eviction") RequeuingTimestamp timestamp,
                                    @DefaultValue("60") int backoffBaseSeconds,
                                    @DefaultValue("3600") int backoffMaxSeconds,
                                    Integer backoffLimitCount) {

        dev.platform.scheduler.core.lifecycle.RequeuingStrategy settings() {
            return new dev.platform.scheduler.core.lifecycle.RequeuingStrategy(timestamp, backoffBaseSeconds,
                    backoffMaxSeconds, backoffLimitCount);
        }
    }

    /**
     * Kueue's Configuration {@code admissionFairSharing}, in its field names.
     *
     * @param usageHalfLifeTime     after this long a LocalQueue's consumed resources count half; unset or
     *                              zero forgets them at every sample
     * @param usageSamplingInterval how often every LocalQueue's consumed resources take in what it holds
     * @param resourceWeights       weight of a resource in the usage score ({@code resource-weights[google.com/tpu]=8});
     *                              a resource not listed weighs 1
     */
    public record AdmissionFairSharingSettings(Duration usageHalfLifeTime,
                                               @DefaultValue("5m") Duration usageSamplingInterval,
                                               Map<String, Double> resourceWeights) {
    }

    /** The core's settings: fair sharing, and admission fair sharing when its block is set. */
    SchedulerSettings schedulerSettings() {
        AdmissionFairSharingSettings afs = admissionFairSharing;
        return new SchedulerSettings(fairSharing.enabled(), afs == null ? null
                : new AdmissionFairSharing(afs.usageHalfLifeTime() == null ? Duration.ZERO : afs.usageHalfLifeTime(),
                        afs.usageSamplingInterval(), afs.resourceWeights()));
    }
}
