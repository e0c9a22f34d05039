package dev.platform.agent.command;

import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandResult;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Long-polls the scheduler for commands and executes them in id order, one at a time, while
 * this replica leads. The first poll carries no {@code after}: the scheduler knows the last
 * acknowledged id, so a restarted or newly elected agent resumes where the acknowledgements
 * stopped. When the scheduler is unreachable the agent backs off and holds no command: what it
 * gets on return is checked against its expiry at execution time.
 */
public class CommandPoller implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CommandPoller.class);

    private final SchedulerClient scheduler;
    private final CommandExecutor executor;
    private final Backoff backoff;
    private final int waitSeconds;
    private Thread thread;

    public CommandPoller(SchedulerClient scheduler, CommandExecutor executor, Backoff backoff, int waitSeconds) {
        this.scheduler = scheduler;
        this.executor = executor;
        this.backoff = backoff;
        this.waitSeconds = waitSeconds;
    }

    public synchronized void start() {
        if (thread == null) {
            thread = new Thread(this::pollUntilStopped, "agent-commands");
            thread.setDaemon(true);
            thread.start();
        }
    }

    public synchronized void stop() {
        if (thread != null) {
            thread.interrupt();
            thread = null;
        }
    }

    private void pollUntilStopped() {
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
                long delay = backoff.delay(failures++, ThreadLocalRandom.current()).toMillis();
                log.warn("command poll failed ({}); retrying in {} ms", e.getMessage(), delay);
                if (!Pause.of(delay)) {
                    return;
                }
                continue;
            }
            for (AgentCommand command : commands.stream().sorted(Comparator.comparingLong(AgentCommand::id)).toList()) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                CommandResult result = executor.execute(command, this::reportProgress);
                if (!acknowledge(result)) {
                    return;
                }
                after = after == null ? command.id() : Math.max(after, command.id());
            }
        }
    }

    /** Retries until delivered: the scheduler redelivers an unacknowledged command, and this process remembers its result. */
    private boolean acknowledge(CommandResult result) {
        for (int attempt = 0; ; attempt++) {
            try {
                scheduler.postResult(result);
                return true;
            } catch (SchedulerUnavailableException e) {
                long delay = backoff.delay(attempt, ThreadLocalRandom.current()).toMillis();
                log.warn("result of command {} not delivered ({}); retrying in {} ms", result.commandId(), e.getMessage(), delay);
                if (!Pause.of(delay)) {
                    return false;
                }
            }
        }
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
