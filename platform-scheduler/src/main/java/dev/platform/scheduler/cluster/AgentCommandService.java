package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.cluster.AgentCommandStore.FinalResult;
import dev.platform.scheduler.cluster.AgentCommandStore.StoredCommand;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

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
        record(cluster, List.of(result), unknown -> Refusal.notFound("Command", cluster + "/" + id));
    }

    /**
     * Records a batch of results of the cluster's commands in one transaction, in the order given, as
     * {@link #recordResult} records one: a command's first final result wins, later ones (in this batch or
     * any other) change nothing; a RETRYING after the final result is ignored. Every command must be the
     * cluster's, else nothing is recorded (an agent's token speaks for its cluster only).
     */
    void recordResults(String cluster, List<CommandResult> results) {
        if (results.size() > AgentProtocol.MAX_RESULTS_PER_BATCH) {
            throw new Refusal(Refusal.Kind.TooLarge, "Too many results in one request", "a request may carry at most "
                    + AgentProtocol.MAX_RESULTS_PER_BATCH + " results, this one carries " + results.size()
                    + ": post them in several requests", List.of());
        }
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i).status() == null) {
                problems.add("results[" + i + "].status is required (command " + results.get(i).commandId() + ")");
            }
        }
        if (!problems.isEmpty()) {
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "the results are refused, none was recorded: "
                    + String.join("; ", problems), List.of());
        }
        if (results.isEmpty()) {
            return;
        }
        record(cluster, results, unknown -> Refusal.notFound("Command", cluster + "/" + unknown.stream()
                .map(String::valueOf).collect(Collectors.joining(","))));
    }

    private void record(String cluster, List<CommandResult> results, Function<List<Long>, Refusal> unknownCommands) {
        List<AgentCommandCompleted> completed = transactions.execute(tx -> {
            Set<Long> ids = results.stream().map(CommandResult::commandId).collect(Collectors.toCollection(TreeSet::new));
            Map<Long, StoredCommand> commands = new HashMap<>();
            store.lock(cluster, ids).forEach(command -> commands.put(command.id(), command));
            List<Long> unknown = ids.stream().filter(id -> !commands.containsKey(id)).toList();
            if (!unknown.isEmpty()) {
                throw unknownCommands.apply(unknown);
            }
            Map<Long, String> progress = new LinkedHashMap<>();
            Map<Long, CommandResult> finals = new TreeMap<>();
            for (CommandResult result : results) {
                long id = result.commandId();
                if (commands.get(id).isFinal() || finals.containsKey(id)) {
                    continue;
                }
                if (result.status() == CommandStatus.RETRYING) {
                    progress.put(id, message(result));
                } else {
                    progress.remove(id);
                    finals.put(id, result);
                }
            }
            Instant now = clock.instant();
            store.recordProgress(progress);
            store.recordFinal(finals.values().stream()
                    .map(r -> new FinalResult(r.commandId(), r.status(), message(r))).toList(), now);
            return finals.values().stream().map(r -> {
                StoredCommand command = commands.get(r.commandId());
                return new AgentCommandCompleted(cluster, r.commandId(), command.type(), command.workloadUid(),
                        r.status(), message(r), now, r.failedTransiently());
            }).toList();
        });
        completed.forEach(events::publishEvent);
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
