package dev.platform.agent.command;

import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.scheduler.SchedulerClient;
import dev.platform.agent.scheduler.SchedulerUnavailableException;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.CommandResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Final results on their way to the scheduler, many per request: a lane hands its result over and
 * waits until the scheduler has recorded it, while senders post whatever results are waiting, at most
 * {@link AgentProtocol#MAX_RESULTS_PER_BATCH} at a time. A sender posts as soon as it is free, so no
 * result waits for a timer: the batch is what gathered during the previous request. Two senders keep
 * one request in flight while the next fills. A batch the scheduler did not take is retried with
 * backoff until it is, or until the term ends (the scheduler redelivers what was not acknowledged).
 */
final class ResultBatches implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ResultBatches.class);
    static final int SENDERS = 2;

    private record Waiting(CommandResult result, CompletableFuture<Void> recorded) {
    }

    private final SchedulerClient scheduler;
    private final Backoff backoff;
    private final BlockingQueue<Waiting> waiting = new LinkedBlockingQueue<>();
    private final List<Thread> senders = new ArrayList<>();
    private volatile boolean closed;

    ResultBatches(SchedulerClient scheduler, Backoff backoff) {
        this.scheduler = scheduler;
        this.backoff = backoff;
        for (int i = 1; i <= SENDERS; i++) {
            Thread sender = new Thread(this::sendUntilClosed, "agent-command-results-" + i);
            sender.setDaemon(true);
            senders.add(sender);
            sender.start();
        }
    }

    /**
     * Posts a final result: the answer is true once the scheduler has recorded it, false when the batches are
     * closed first (the result may or may not have been recorded).
     */
    CompletionStage<Boolean> post(CommandResult result) {
        Waiting entry = new Waiting(result, new CompletableFuture<>());
        waiting.add(entry);
        if (closed) {
            entry.recorded().cancel(false);
        }
        return entry.recorded().handle((recorded, failure) -> failure == null);
    }

    private void sendUntilClosed() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                List<Waiting> batch = new ArrayList<>();
                batch.add(waiting.take());
                waiting.drainTo(batch, AgentProtocol.MAX_RESULTS_PER_BATCH - 1);
                if (!deliver(batch)) {
                    batch.forEach(w -> w.recorded().cancel(false));
                    return;
                }
                batch.forEach(w -> w.recorded().complete(null));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean deliver(List<Waiting> batch) {
        List<CommandResult> results = batch.stream().map(Waiting::result).toList();
        for (int attempt = 0; ; attempt++) {
            try {
                scheduler.postResults(results);
                return true;
            } catch (SchedulerUnavailableException e) {
                long delay = scheduler.retryDelay(backoff, attempt).toMillis();
                if (e.unreachable()) {
                    log.debug("{} command result(s) not delivered ({}); retrying in {} ms", results.size(),
                            e.getMessage(), delay);
                } else {
                    log.warn("{} command result(s) not delivered ({}); retrying in {} ms", results.size(),
                            e.getMessage(), delay);
                }
                if (!Pause.of(delay)) {
                    return false;
                }
            }
        }
    }

    /** Stops the senders; results not recorded yet are given up (their commands come back to the next leader). */
    @Override
    public void close() {
        closed = true;
        senders.forEach(Thread::interrupt);
        for (Thread sender : senders) {
            try {
                sender.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        waiting.forEach(w -> w.recorded().cancel(false));
    }
}
