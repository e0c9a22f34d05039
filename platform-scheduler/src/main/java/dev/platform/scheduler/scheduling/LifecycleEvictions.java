package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.RequeuingTimestamp;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * What the lifecycle rules decided for a workload holding quota, as the decision the committer writes: its quota
 * goes (requeued with backoff, or deactivated) and a STOP takes its pods out of its cluster (the JobSet stays
 * suspended, as Kueue suspends the job of an evicted or deactivated workload); once it landed, counted in Kueue's
 * eviction metric and logged.
 */
@Component
class LifecycleEvictions {

    private static final Logger log = LoggerFactory.getLogger(LifecycleEvictions.class);

    private final SchedulingMetrics metrics;
    private final RequeuingTimestamp timestamp;

    LifecycleEvictions(SchedulingMetrics metrics, SchedulingProperties properties) {
        this.metrics = metrics;
        this.timestamp = properties.waitForPodsReady().requeuingStrategy().timestamp();
    }

    /** {@code decision} for {@code row} (the workload it names), to land only if the row is still as {@code expected}. */
    WorkloadDecision.Lifecycle decision(LifecycleDecision decision, WorkloadRow row,
                                        WorkloadTransitions.Expected expected) {
        return decision(decision, row, expected, timestamp);
    }

    /** The same, queued again as of the eviction when the requeuing strategy's {@code timestamp} says so. */
    static WorkloadDecision.Lifecycle decision(LifecycleDecision decision, WorkloadRow row,
                                               WorkloadTransitions.Expected expected, RequeuingTimestamp timestamp) {
        return new WorkloadDecision.Lifecycle(row.uid(), expected, decision,
                timestamp == RequeuingTimestamp.Eviction, row.maximumExecutionTimeSeconds());
    }

    /** Counts and logs the eviction of {@code row} that {@code decision} made, once it landed. */
    void landed(LifecycleDecision decision, WorkloadRow row) {
        EvictionReason reason = decision instanceof LifecycleDecision.Requeue q ? q.reason() : EvictionReason.Deactivated;
        metrics.evicted(row.clusterQueue(), reason, decision.underlyingCause(), row.priorityClassName());
        log.info("workload {}/{} ({}) evicted, {}: {}", row.namespace(), row.name(), row.uid(), reason,
                decision.message());
    }
}
