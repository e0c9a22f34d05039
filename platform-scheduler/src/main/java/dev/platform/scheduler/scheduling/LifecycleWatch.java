package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.leadership.EpochFence;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * The scheduling loop's step for the lifecycle timers of the workloads holding quota (Kueue's
 * workload controller): the workloads whose pods-ready timeout or maximum execution time is past
 * are evicted, requeued with backoff or deactivated, each in its own transaction fenced by the
 * leader epoch and guarded by the row's version. The change feed then brings the rows back to the
 * cache, which frees their quota in the core and holds the requeued ones until their backoff ends.
 */
@Component
class LifecycleWatch {

    private final LifecycleEvictions evictions;
    private final WorkloadTransitions transitions;
    private final EpochFence fence;
    private final TransactionTemplate transactions;
    private final Clock clock;

    LifecycleWatch(LifecycleEvictions evictions, WorkloadTransitions transitions, EpochFence fence,
                   TransactionTemplate transactions, Clock clock) {
        this.evictions = evictions;
        this.transitions = transitions;
        this.fence = fence;
        this.transactions = transactions;
        this.clock = clock;
    }

    /** Acts on every deadline past; true when any eviction landed. */
    boolean run(long epoch, SchedulerCache cache) {
        Instant now = clock.instant();
        List<LifecycleDecision> due = cache.lifecycle().due(now);
        boolean landed = false;
        for (LifecycleDecision decision : due) {
            WorkloadRow row = cache.row(decision.uid());
            if (row == null) {
                continue;
            }
            landed |= Boolean.TRUE.equals(transactions.execute(tx -> {
                fence.check(epoch);
                transitions.lockChanges();
                return evictions.apply(decision, new LifecycleEvictions.Subject(row.clusterQueue(),
                                row.priorityClassName(), row.maximumExecutionTimeSeconds()),
                        new WorkloadTransitions.Expected.AtVersion(row.version()), now);
            }));
        }
        return landed;
    }
}
