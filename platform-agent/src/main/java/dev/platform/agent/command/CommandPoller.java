package dev.platform.agent.command;

import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long-polls the scheduler for commands while this replica leads, once the cluster's watch caches
 * have synced, and executes them in {@link WorkloadLanes}: concurrently across workloads, in id
 * order within each; their results go back many per request ({@link ResultBatches}). A poll is
 * asked again as soon as the one before is answered and handed to the lanes, so delivery never
 * waits for execution. The first poll carries no {@code after}: the scheduler answers every command
 * without a final result, so a restarted or newly elected agent resumes whatever was left
 * unfinished; later polls pass the highest id received (the lanes hold what is received and not
 * yet finished). When the scheduler is unreachable the agent backs off: what it gets on return is
 * checked against its expiry at execution time, on this agent's clock from the time left when the
 * scheduler sent it, so a skewed clock does not matter.
 */
public class CommandPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CommandPoller.class);
    /** How long a replica that stops leading waits for its commands in progress to give up. */
    private static final Duration STOP_PATIENCE = Duration.ofSeconds(10);
    /** How often a new leader looks whether the watch caches have synced before it takes commands. */
    private static final Duration SYNC_CHECK = Duration.ofMillis(50);

    private final SchedulerClient scheduler;
    private final CommandExecutor executor;
    private final Backoff backoff;
    private final int waitSeconds;
    private final int workers;
    private final Clock clock;
    private final BooleanSupplier synced;
    private Thread thread;
    private WorkloadLanes lanes;
    private ResultBatches results;

    /** @param workers workloads whose commands run at once; the others' wait for a free worker */
    public CommandPoller(SchedulerClient scheduler, CommandExecutor executor, Backoff backoff, int waitSeconds,
                         int workers, Clock clock, BooleanSupplier synced) {
        this.workers = workers;
        this.clock = clock;
        this.synced = synced;
        this.scheduler = scheduler;
        this.executor = executor;
        this.backoff = backoff;
        this.waitSeconds = waitSeconds;
    }

    public synchronized void start() {
        if (thread == null) {
            ResultBatches posted = new ResultBatches(scheduler, backoff);
            results = posted;
            WorkloadLanes term = new WorkloadLanes(workers, STOP_PATIENCE, command -> runToTheEnd(command, posted));
            lanes = term;
            thread = new Thread(() -> pollUntilStopped(term), "agent-commands");
            thread.setDaemon(true);
            thread.start();
        }
    }

    public synchronized void stop() {
        if (thread != null) {
            thread.interrupt();
            lanes.close();
            results.close();
            try {
                thread.join(STOP_PATIENCE.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread = null;
            lanes = null;
            results = null;
        }
    }

    private void pollUntilStopped(WorkloadLanes lanes) {
        // Commands decide on the watch caches (a STOP evicts the pods the cache lists): a command run before the
        // caches hold the cluster would find nothing to do and report success with the pods still running.
        while (!synced.getAsBoolean()) {
            if (!Pause.of(SYNC_CHECK.toMillis())) {
                return;
            }
        }
        Long after = null;
        int failures = 0;
        while (!Thread.currentThread().isInterrupted()) {
            List<AgentCommand> commands;
            try {
                commands = scheduler.pollCommands(after, waitSeconds);
                failures = 0;
            } catch (SchedulerUnavailableException e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                long delay = scheduler.retryDelay(backoff, failures++).toMillis();
                if (e.unreachable()) {
                    log.debug("command poll failed ({}); retrying in {} ms", e.getMessage(), delay);
                } else {
                    log.warn("command poll failed ({}); retrying in {} ms", e.getMessage(), delay);
                }
                if (!Pause.of(delay)) {
                    return;
                }
                continue;
            }
            Instant received = clock.instant();
            for (AgentCommand command : commands.stream().sorted(Comparator.comparingLong(AgentCommand::id)).toList()) {
                lanes.submit(command.expiringOnReceiverClock(received));
                after = after == null ? command.id() : Math.max(after, command.id());
            }
        }
    }

    /**
     * Executes a command and posts its result, in a batch with other lanes' results; answers, once the scheduler
     * has recorded it, true, or false when interrupted (leadership lost): a result cut short is not posted, the
     * command stays unfinished for the next leader. The lane's next command starts only once the scheduler has
     * this result.
     */
    private CompletionStage<Boolean> runToTheEnd(AgentCommand command, ResultBatches posted) {
        CommandResult result = executor.execute(command, this::reportProgress);
        if (Thread.currentThread().isInterrupted()) {
            return CompletableFuture.completedFuture(false);
        }
        return posted.post(result);
    }

    /** Progress is advisory: a lost RETRYING report is superseded by the final result. */
    private void reportProgress(CommandResult progress) {
        try {
            scheduler.postResult(progress);
        } catch (SchedulerUnavailableException e) {
            log.debug("progress of command {} not delivered: {}", progress.commandId(), e.getMessage());
        }
    }

    @Override
    public void close() {
        stop();
    }
}
