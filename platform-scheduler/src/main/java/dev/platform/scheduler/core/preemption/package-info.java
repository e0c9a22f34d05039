/**
 * Choosing victims as Kueue does: {@link dev.platform.scheduler.core.preemption.Preemptor} for the classical
 * policies (within the ClusterQueue, reclaim and borrow within the Cohort) and
 * {@link dev.platform.scheduler.core.preemption.FairSharingPreemption} for fair sharing, both on a
 * {@link dev.platform.scheduler.core.quota.Snapshot}.
 */
package dev.platform.scheduler.core.preemption;
