package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The scheduling loop's step for the lifecycle timers of the workloads holding quota (Kueue's
 * workload controller): the workloads whose pods-ready timeout or maximum execution time is past
 * are evicted, requeued with backoff or deactivated, in one commit fenced by the leader epoch, each
 * guarded by its row's version. The change feed then brings the rows back to the cache, which frees
 * their quota in the core and holds the requeued ones until their backoff ends.
 */
@Component
class LifecycleWatch {

    private final LifecycleEvictions evictions;
    private final DecisionCommitter committer;
    private final Clock clock;

    LifecycleWatch(LifecycleEvictions evictions, DecisionCommitter committer, Clock clock) {
        this.evictions = evictions;
        this.committer = committer;
        this.clock = clock;
    }

    /** Acts on every deadline past; true when any eviction landed. */
    boolean run(long epoch, SchedulerCache cache) {
        List<Due> due = due(cache);
        if (due.isEmpty()) {
            return false;
        }
        DecisionCommitter.Committed committed = committer.commit(epoch, due.stream().map(Due::decision).toList());
        boolean landed = false;
        for (Due d : due) {
            if (committed.landed(d.row().uid())) {
                evictions.landed(d.lifecycle(), d.row());
                landed = true;
            }
        }
        return landed;
    }

    /** A timer's decision for a row the cache knows. */
    record Due(LifecycleDecision lifecycle, WorkloadRow row, WorkloadDecision.Lifecycle decision) {
    }

    /** The decisions of the timers past, each guarded by the version the cache holds of its row. */
    List<Due> due(SchedulerCache cache) {
        List<Due> due = new ArrayList<>();
        for (LifecycleDecision decision : cache.lifecycle().due(clock.instant())) {
            WorkloadRow row = cache.row(decision.uid());
            if (row != null) {
                due.add(new Due(decision, row, evictions.decision(decision, row,
                        new WorkloadTransitions.Expected.AtVersion(row.version()))));
            }
        }
        return due;
    }
}
