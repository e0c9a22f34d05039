package dev.platform.scheduler.scheduling;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.hotswap.HotswapStore;
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
 *   <li>a failed START (the API server refused the JobSet: a missing namespace, an admission
 *   webhook, a ResourceQuota) fails the workload with reason {@code StartFailed} and the agent's
 *   message, its quota released and whatever part of its JobSet exists deleted: retrying would
 *   fail the same way, and the user sees why;</li>
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

    FailedStarts(WorkloadTransitions transitions, HotswapStore hotswaps, AgentCommandStore commands,
                 TransactionTemplate transactions, ApplicationEventPublisher events) {
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
        boolean acted = Boolean.TRUE.equals(transactions.execute(tx -> completed.type() == CommandType.START
                ? failWorkload(completed) : requeueWorkload(completed)));
        if (acted) {
            events.publishEvent(new WorkloadsChanged());
        } else {
            log.info("{} {} of workload {} failed ({}); the workload has moved on since", completed.type(),
                    completed.id(), completed.workloadUid(), completed.message());
        }
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
