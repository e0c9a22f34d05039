/**
 * Quota accounting: the tree of Cohorts and ClusterQueues with nominal quota, borrowing and lending limits and
 * usage ({@link dev.platform.scheduler.core.quota.QuotaTree}, {@link dev.platform.scheduler.core.quota.QuotaNode}),
 * dominant resource shares for fair sharing, and the {@link dev.platform.scheduler.core.quota.Snapshot} one cycle
 * simulates on, undoing each trial with a {@link dev.platform.scheduler.core.quota.Revert}.
 */
package dev.platform.scheduler.core.quota;
