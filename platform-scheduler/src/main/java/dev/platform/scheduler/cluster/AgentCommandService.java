package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.scheduler.cluster.AgentCommandStore.StoredCommand;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Delivery of commands by long poll, and their results (docs/agent.md). */
@Service
class AgentCommandService {

    private final AgentCommandStore store;
    private final CommandSignals signals;
    private final TransactionTemplate transactions;
    private final ApplicationEventPublisher events;
    private final AgentsProperties properties;
    private final Clock clock;

    AgentCommandService(AgentCommandStore store, CommandSignals signals, TransactionTemplate transactions,
                        ApplicationEventPublisher events, AgentsProperties properties, Clock clock) {
        this.store = store;
        this.signals = signals;
        this.transactions = transactions;
        this.events = events;
        this.properties = properties;
        this.clock = clock;
    }

    /**
     * The commands above {@code after} (absent: every one without a final result), waiting up to
     * {@code waitSeconds} (capped) for one to be queued. A command queued on this replica answers
     * at once; one queued on another replica within the poll interval.
     */
    List<AgentCommand> poll(String cluster, Long after, int waitSeconds) {
        long wait = TimeUnit.SECONDS.toNanos(Math.max(0, Math.min(waitSeconds, properties.maxWaitSeconds())));
        long deadline = System.nanoTime() + wait;
        long interval = properties.pollInterval().toNanos();
        while (true) {
            long generation = signals.generation(cluster);
            List<AgentCommand> commands = transactions.execute(tx -> store.deliver(cluster, after)).stream()
                    .map(command -> command.sentAt(clock.instant())).toList();
            long remaining = deadline - System.nanoTime();
            if (!commands.isEmpty() || remaining <= 0 || !signals.isOpen()) {
                return commands;
            }
            try {
                signals.await(cluster, generation, Math.min(remaining, interval));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return List.of();
            }
        }
    }

    /**
     * Records a result. RETRYING is progress (its message kept); a final one acknowledges the
     * command once: a repeated final result changes nothing and publishes nothing.
     */
    void recordResult(String cluster, long id, CommandResult result) {
        if (result.commandId() != id) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "the result is for command "
                    + result.commandId() + " but was posted for command " + id, List.of());
        }
        if (result.status() == null) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "status is required", List.of());
        }
        Optional<AgentCommandCompleted> completed = transactions.execute(tx -> {
            StoredCommand command = store.lock(cluster, id)
                    .orElseThrow(() -> Refusal.notFound("Command", cluster + "/" + id));
            if (command.isFinal()) {
                return Optional.<AgentCommandCompleted>empty();
            }
            String message = message(result);
            if (result.status() == CommandStatus.RETRYING) {
                store.recordProgress(id, message);
                return Optional.<AgentCommandCompleted>empty();
            }
            Instant now = clock.instant();
            store.recordFinal(id, result.status(), message, now);
            return Optional.of(new AgentCommandCompleted(cluster, id, command.type(), command.workloadUid(),
                    result.status(), message, now, result.failedTransiently()));
        });
        completed.ifPresent(events::publishEvent);
    }

    private static String message(CommandResult result) {
        String message = result.message() == null ? "" : result.message();
        if (result.eviction() == null) {
            return message;
        }
        return message + " [evicted " + result.eviction().podsEvicted() + " pod(s), "
                + result.eviction().disruptionBudgetRejections() + " PodDisruptionBudget rejection(s)"
                + (result.eviction().blockedPods().isEmpty() ? "" : ", blocked: " + result.eviction().blockedPods())
                + "]";
    }
}
