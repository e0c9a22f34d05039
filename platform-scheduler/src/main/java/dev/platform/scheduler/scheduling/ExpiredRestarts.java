package dev.platform.scheduler.scheduling;

import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandCompleted;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.commit.DecisionCommitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;

/**
 * A hotswap RESTART that reached its agent too late (refused as expired: the agent was away for
 * longer than {@link DecisionCommitter#RESTART_EXPIRY}) is issued again, with a fresh expiry, while the
 * workload still holds that placement: the scheduler's admission is the truth, and without the
 * restart the workload would hold its new pools while its pods sit on the broken ones. A workload
 * that moved on since (a later command, evicted, finished) is left to that later decision.
 */
@Component
class ExpiredRestarts {

    private static final Logger log = LoggerFactory.getLogger(ExpiredRestarts.class);

    private final AgentCommandStore commands;
    private final TransactionTemplate transactions;
    private final Clock clock;

    ExpiredRestarts(AgentCommandStore commands, TransactionTemplate transactions, Clock clock) {
        this.commands = commands;
        this.transactions = transactions;
        this.clock = clock;
    }

    @EventListener
    void onCommandCompleted(AgentCommandCompleted completed) {
        if (completed.type() != CommandType.RESTART || completed.status() != CommandStatus.REFUSED_EXPIRED) {
            return;
        }
        transactions.execute(tx -> commands.reissueWhileCurrent(completed.id(),
                        clock.instant().plus(DecisionCommitter.RESTART_EXPIRY)))
                .ifPresentOrElse(
                        id -> log.info("RESTART {} of workload {} expired before its agent ran it; issued again as {}",
                                completed.id(), completed.workloadUid(), id),
                        () -> log.info("RESTART {} of workload {} expired; the workload has moved on since",
                                completed.id(), completed.workloadUid()));
    }
}
