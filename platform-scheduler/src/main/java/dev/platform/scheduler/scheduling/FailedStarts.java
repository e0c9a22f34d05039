package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import dev.platform.scheduler.commit.DecisionCommitter;
import dev.platform.scheduler.commit.WorkloadDecision;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.RequeuingStrategy;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadService.WorkloadsChanged;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;
import java.util.Optional;

/**
 * A START or RESTART its agent could not carry out (the result FAILED) leaves the workload
 * holding quota and pools where nothing runs; it is not left so:
 * <ul>
 *   <li>a START that failed for a reason that may pass (the agent says so: no answer from the API
 *   server, a 5xx, 429 or conflict) requeues the workload with the backoff of Kueue's
 *   waitForPodsReady.requeuingStrategy (Evicted reason {@code StartFailed}, its requeueState counted),
 *   or deactivates it ({@code RequeuingLimitExceeded}) once the requeuing limit is reached;</li>
 *   <li>any other failed START (the API server refused the JobSet: a missing namespace, an admission
 *   webhook, a ResourceQuota; or an agent that does not say) fails the workload with reason
 *   {@code StartFailed} and the agent's message, its quota released and whatever part of its JobSet
 *   exists deleted: retrying would fail the same way, and the user sees why;</li>
 *   <li>a failed hotswap RESTART (old pods that would not go) requeues the workload at its place
 *   with reason {@code NodeFailures}, its quota released, and its hotswap event ends Requeued: it
 *   is admitted again through the normal cycle, and its START resumes the suspended JobSet.</li>
 * </ul>
 * Only while the failed command is still the workload's latest and the workload is still
 * Admitted in that cluster: a later decision has the last word. Written through the change feed,
 * so the scheduling loop follows.
 */
@Component
class FailedStarts {

    private static final Logger log = LoggerFactory.getLogger(FailedStarts.class);

    private final DecisionCommitter committer;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final WorkloadStore workloads;
    private final LifecycleEvictions lifecycle;
    private final RequeuingStrategy requeuing;

    FailedStarts(DecisionCommitter committer, TransactionTemplate transactions, ApplicationEventPublisher events,
                 WorkloadStore workloads, LifecycleEvictions lifecycle, SchedulingProperties properties) {
        this.committer = committer;
        this.transactions = transactions;
        this.events = events;
        this.workloads = workloads;
        this.lifecycle = lifecycle;
        this.requeuing = properties.waitForPodsReady().settings().requeuingStrategy();
    }

    @EventListener
    void onCommandCompleted(AgentCommandCompleted completed) {
        if (completed.status() != CommandStatus.FAILED
                || (completed.type() != CommandType.START && completed.type() != CommandType.RESTART)) {
            return;
        }
        boolean acted = Boolean.TRUE.equals(transactions.execute(tx -> act(completed)));
        if (acted) {
            events.publishEvent(new WorkloadsChanged());
        } else {
            log.info("{} {} of workload {} failed ({}); the workload has moved on since", completed.type(),
                    completed.id(), completed.workloadUid(), completed.message());
        }
    }

    /** Decides and commits what follows the failed command; whether it landed. */
    private boolean act(AgentCommandCompleted c) {
        if (c.type() == CommandType.START && c.transientFailure()) {
            Optional<WorkloadRow> row = workloads.find(c.workloadUid());
            if (row.isEmpty()) {
                return false;
            }
            LifecycleDecision decision = backOff(c, row.get());
            boolean landed = committer.commitReported(List.of(lifecycle.decision(decision, row.get(),
                    latest(c)))).landed(c.workloadUid());
            if (landed) {
                lifecycle.landed(decision, row.get());
            }
            return landed;
        }
        WorkloadDecision decision = decide(c);
        boolean landed = committer.commitReported(List.of(decision)).landed(c.workloadUid());
        if (landed) {
            if (decision instanceof WorkloadDecision.Fail f) {
                log.warn("workload {} failed: {}", c.workloadUid(), f.message());
            } else {
                log.warn("workload {} requeued: {}", c.workloadUid(), ((WorkloadDecision.Requeue) decision).message());
            }
        }
        return landed;
    }

    /** A START that may pass: requeued with Kueue's backoff, or deactivated past the requeuing limit. */
    LifecycleDecision backOff(AgentCommandCompleted c, WorkloadRow w) {
        String message = "Cluster " + c.cluster() + " could not start the JobSet, for now: " + c.message();
        return requeuing.next(c.workloadUid().toString(), w.lifecycle().requeueCount(), c.at(),
                EvictionReason.StartFailed, null, message);
    }

    /**
     * A START refused for good: failed, its JobSet deleted. A failed RESTART: requeued at its place, its hotswap
     * ending Requeued.
     */
    static WorkloadDecision decide(AgentCommandCompleted c) {
        if (c.type() == CommandType.RESTART) {
            return new WorkloadDecision.Requeue(c.workloadUid(), latest(c), EvictionReason.NodeFailures,
                    "The restart on the replacement node pools in cluster " + c.cluster() + " failed: " + c.message(),
                    "Requeued at its original position after a failed restart", WorkloadDecision.AfterRelease.NOTHING,
                    true);
        }
        return new WorkloadDecision.Fail(c.workloadUid(), latest(c), "StartFailed",
                "Cluster " + c.cluster() + " could not start the JobSet: " + c.message(),
                WorkloadDecision.AfterRelease.DELETE);
    }

    private static WorkloadTransitions.Expected latest(AgentCommandCompleted c) {
        return new WorkloadTransitions.Expected.LatestCommand(c.cluster(), c.id());
    }
}
