package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.lifecycle.RequeuingStrategy;
import dev.platform.scheduler.hotswap.HotswapStore;
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

    private final WorkloadTransitions transitions;
    private final HotswapStore hotswaps;
    private final AgentCommandStore commands;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final WorkloadStore workloads;
    private final LifecycleEvictions lifecycle;
    private final RequeuingStrategy requeuing;

    FailedStarts(WorkloadTransitions transitions, HotswapStore hotswaps, AgentCommandStore commands,
                 TransactionTemplate transactions, ApplicationEventPublisher events, WorkloadStore workloads,
                 LifecycleEvictions lifecycle, SchedulingProperties properties) {
        this.workloads = workloads;
        this.lifecycle = lifecycle;
        this.requeuing = properties.waitForPodsReady().settings().requeuingStrategy();
        this.transitions = transitions;
        this.hotswaps = hotswaps;
        this.commands = commands;
        this.transactions = transactions;
        this.events = events;
    }

    @EventListener
    void onCommandCompleted(AgentCommandCompleted completed) {
        if (completed.status() != CommandStatus.FAILED
                || (completed.type() != CommandType.START && completed.type() != CommandType.RESTART)) {
            return;
        }
        boolean acted = Boolean.TRUE.equals(transactions.execute(tx -> completed.type() == CommandType.RESTART
                ? requeueWorkload(completed)
                : completed.transientFailure() ? backOff(completed) : failWorkload(completed)));
        if (acted) {
            events.publishEvent(new WorkloadsChanged());
        } else {
            log.info("{} {} of workload {} failed ({}); the workload has moved on since", completed.type(),
                    completed.id(), completed.workloadUid(), completed.message());
        }
    }

    private boolean backOff(AgentCommandCompleted c) {
        transitions.lockChanges();
        Optional<WorkloadRow> row = workloads.find(c.workloadUid());
        if (row.isEmpty()) {
            return false;
        }
        WorkloadRow w = row.get();
        String message = "Cluster " + c.cluster() + " could not start the JobSet, for now: " + c.message();
        LifecycleDecision decision = requeuing.next(c.workloadUid().toString(), w.lifecycle().requeueCount(), c.at(),
                EvictionReason.StartFailed, null, message);
        return lifecycle.apply(decision, new LifecycleEvictions.Subject(w.clusterQueue(), w.priorityClassName(),
                        w.maximumExecutionTimeSeconds()),
                new WorkloadTransitions.Expected.LatestCommand(c.cluster(), c.id()), c.at());
    }

    private boolean failWorkload(AgentCommandCompleted c) {
        transitions.lockChanges();
        String message = "Cluster " + c.cluster() + " could not start the JobSet: " + c.message();
        Optional<WorkloadTransitions.Released> failed = transitions.fail(c.workloadUid(),
                new WorkloadTransitions.Expected.LatestCommand(c.cluster(), c.id()), c.at(), "StartFailed", message);
        if (failed.isEmpty()) {
            return false;
        }
        commands.enqueue(c.cluster(), CommandType.DELETE, c.workloadUid(), failed.get().namespace(),
                failed.get().name(), null, null);
        log.warn("workload {} failed: {}", c.workloadUid(), message);
        return true;
    }

    private boolean requeueWorkload(AgentCommandCompleted c) {
        transitions.lockChanges();
        String message = "The restart on the replacement node pools in cluster " + c.cluster() + " failed: "
                + c.message();
        boolean requeued = transitions.requeue(c.workloadUid(),
                new WorkloadTransitions.Expected.LatestCommand(c.cluster(), c.id()), c.at(), EvictionReason.NodeFailures, message,
                "Requeued at its original position after a failed restart").isPresent();
        if (!requeued) {
            return false;
        }
        hotswaps.requeued(c.workloadUid());
        log.warn("workload {} requeued: {}", c.workloadUid(), message);
        return true;
    }
}
