package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.api.reason.DeactivationReason;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.RequeuingTimestamp;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Carries out what the lifecycle rules decided for a workload holding quota, in the caller's
 * transaction: its quota goes (requeued with backoff, or deactivated) through the workload's
 * transition, and a STOP takes its pods out of its cluster (the JobSet stays suspended, as Kueue
 * suspends the job of an evicted or deactivated workload). Counted in Kueue's eviction metric.
 */
@Component
class LifecycleEvictions {

    private static final Logger log = LoggerFactory.getLogger(LifecycleEvictions.class);

    private final WorkloadTransitions transitions;
    private final AgentCommandStore commands;
    private final SchedulingMetrics metrics;
    private final RequeuingTimestamp timestamp;

    LifecycleEvictions(WorkloadTransitions transitions, AgentCommandStore commands, SchedulingMetrics metrics,
                       SchedulingProperties properties) {
        this.transitions = transitions;
        this.commands = commands;
        this.metrics = metrics;
        this.timestamp = properties.waitForPodsReady().requeuingStrategy().timestamp();
    }

    /** What the caller knows of the workload: its ClusterQueue and priority class (metrics), its execution limit. */
    record Subject(String clusterQueue, String priorityClassName, Integer maximumExecutionTimeSeconds) {
    }

    /** Applies {@code decision} if the row is still as {@code expected}; returns whether it landed. */
    boolean apply(LifecycleDecision decision, Subject subject, WorkloadTransitions.Expected expected, Instant now) {
        UUID uid = UUID.fromString(decision.uid());
        Optional<WorkloadTransitions.Released> released;
        if (decision instanceof LifecycleDecision.Requeue r) {
            released = transitions.requeueWithBackoff(uid, expected, now, r.reason().name(), r.message(),
                    r.requeueState().count(), r.requeueState().requeueAt(), timestamp == RequeuingTimestamp.Eviction);
        } else {
            LifecycleDecision.Deactivate d = (LifecycleDecision.Deactivate) decision;
            released = transitions.deactivate(uid, expected, now, d.reason().name(), d.reason().evictedReason(),
                    d.message(), extraEvents(uid, d, subject, now));
        }
        if (released.isEmpty()) {
            return false;
        }
        WorkloadTransitions.Released r = released.get();
        if (r.cluster() != null) {
            commands.enqueue(r.cluster(), CommandType.STOP, uid, r.namespace(), r.name(), null, null);
        }
        EvictionReason reason = decision instanceof LifecycleDecision.Requeue q ? q.reason() : EvictionReason.Deactivated;
        metrics.evicted(subject.clusterQueue(), reason, decision.underlyingCause(), subject.priorityClassName());
        log.info("workload {}/{} ({}) evicted, {}: {}", r.namespace(), r.name(), uid, reason, decision.message());
        return true;
    }

    /** Kueue's warning event of a workload over its maximum execution time, in its timeline. */
    private static List<WorkloadTransitions.NewEvent> extraEvents(UUID uid, LifecycleDecision.Deactivate d,
                                                                  Subject subject, Instant now) {
        if (d.reason() != DeactivationReason.MaximumExecutionTimeExceeded) {
            return List.of();
        }
        return List.of(new WorkloadTransitions.NewEvent(uid, now, "MaximumExecutionTimeExceeded", "True",
                "MaximumExecutionTimeExceeded", "The maximum execution time (" + subject.maximumExecutionTimeSeconds()
                + "s) exceeded"));
    }
}
