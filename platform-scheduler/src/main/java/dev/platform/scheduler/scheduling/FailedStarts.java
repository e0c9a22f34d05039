package dev.platform.scheduler.scheduling;

import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.workload.WorkloadService.WorkloadsChanged;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadStore.NewEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.sql.Timestamp;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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

    private final JdbcClient jdbc;
    private final WorkloadStore workloads;
    private final AgentCommandStore commands;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;

    FailedStarts(JdbcClient jdbc, WorkloadStore workloads, AgentCommandStore commands, TransactionTemplate transactions,
                 ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.workloads = workloads;
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
        workloads.lockChanges();
        String message = "Cluster " + c.cluster() + " could not start the JobSet: " + c.message();
        Map<String, Object> failed = jdbc.sql("""
                        UPDATE workload w SET state = 'Failed', finished_at = :at, version = w.version + 1,
                               change_seq = nextval('workload_change_seq')
                        WHERE w.uid = :uid AND w.state = 'Admitted' AND w.cluster = :cluster
                          AND NOT EXISTS (SELECT 1 FROM agent_command later
                                          WHERE later.workload_uid = w.uid AND later.seq > :seq)
                        RETURNING w.namespace, w.name""")
                .param("at", Timestamp.from(c.at())).param("uid", c.workloadUid()).param("cluster", c.cluster())
                .param("seq", c.id()).query().listOfRows().stream().findFirst().orElse(null);
        if (failed == null) {
            return false;
        }
        jdbc.sql("DELETE FROM workload_usage WHERE workload_uid = ?").param(c.workloadUid()).update();
        workloads.appendEvents(List.of(new NewEvent(c.workloadUid(), c.at(), "Finished", "True", "StartFailed", message)));
        commands.enqueue(c.cluster(), CommandType.DELETE, c.workloadUid(), (String) failed.get("namespace"),
                (String) failed.get("name"), null, null);
        log.warn("workload {} failed: {}", c.workloadUid(), message);
        return true;
    }

    private boolean requeueWorkload(AgentCommandCompleted c) {
        workloads.lockChanges();
        String message = "The restart on the replacement node pools in cluster " + c.cluster() + " failed: "
                + c.message();
        boolean requeued = jdbc.sql("""
                        UPDATE workload w SET state = 'Pending', admission = NULL, admitted_at = NULL, cluster = NULL,
                               version = w.version + 1, change_seq = nextval('workload_change_seq')
                        WHERE w.uid = :uid AND w.state = 'Admitted' AND w.cluster = :cluster
                          AND NOT EXISTS (SELECT 1 FROM agent_command later
                                          WHERE later.workload_uid = w.uid AND later.seq > :seq)""")
                .param("uid", c.workloadUid()).param("cluster", c.cluster()).param("seq", c.id()).update() == 1;
        if (!requeued) {
            return false;
        }
        jdbc.sql("DELETE FROM workload_usage WHERE workload_uid = ?").param(c.workloadUid()).update();
        jdbc.sql("UPDATE hotswap_event SET outcome = 'Requeued' WHERE disrupted_uid = ? AND outcome = 'InProgress'")
                .param(c.workloadUid()).update();
        UUID uid = c.workloadUid();
        workloads.appendEvents(List.of(
                new NewEvent(uid, c.at(), "Evicted", "True", "NodeFailures", message),
                new NewEvent(uid, c.at(), "QuotaReserved", "False", "NodeFailures", message),
                new NewEvent(uid, c.at(), "Requeued", "True", "NodeFailures",
                        "Requeued at its original position after a failed restart")));
        log.warn("workload {} requeued: {}", uid, message);
        return true;
    }
}
