package dev.platform.agent.command;

import dev.platform.api.agent.AgentCommand;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commands of different workloads run concurrently, each workload's in the order submitted: one
 * lane per workload uid, whose next command starts only once the one before has run to the end.
 * A STOP held back by a PodDisruptionBudget thus delays its own workload's later commands and no
 * other's. Lanes share a bounded pool of workers and take one for one command at a time, so a
 * workload with many commands queued does not keep a worker from the others. A command has run to
 * the end when the scheduler has recorded its result; the worker is free as soon as the command has
 * been carried out, so the workers execute while results travel (a worker waiting for each round
 * trip bounded the agent at workers / round trip, about 1,700 commands per second with 64).
 */
final class WorkloadLanes implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(WorkloadLanes.class);

    private final ExecutorService workers;
    private final Function<AgentCommand, CompletionStage<Boolean>> runToTheEnd;
    private final Duration closePatience;
    /** Per workload uid, its commands not yet run to the end, the head one running. */
    private final Map<String, Queue<AgentCommand>> lanes = new HashMap<>();

    /**
     * @param runToTheEnd runs a command on the calling worker and answers, then or later, whether it ran to
     *                    the end; false (the thread was interrupted, the result given up) leaves the lane where
     *                    it is
     */
    WorkloadLanes(int workers, Duration closePatience, Function<AgentCommand, CompletionStage<Boolean>> runToTheEnd) {
        AtomicInteger count = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(workers, r -> {
            Thread thread = new Thread(r, "agent-command-lane-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        this.closePatience = closePatience;
        this.runToTheEnd = runToTheEnd;
    }

    /** Queues a command behind the earlier ones of its workload; starts it when there are none. */
    void submit(AgentCommand command) {
        boolean idle;
        synchronized (lanes) {
            Queue<AgentCommand> lane = lanes.computeIfAbsent(command.workloadUid(), uid -> new ArrayDeque<>());
            idle = lane.isEmpty();
            lane.add(command);
        }
        if (idle) {
            dispatch(command.workloadUid());
        }
    }

    private void dispatch(String workloadUid) {
        try {
            workers.execute(() -> runHead(workloadUid));
        } catch (RejectedExecutionException closed) {
            log.debug("lanes closed; commands of workload {} left to the next leader", workloadUid);
        }
    }

    private void runHead(String workloadUid) {
        AgentCommand head;
        synchronized (lanes) {
            head = lanes.get(workloadUid).element();
        }
        if (Thread.currentThread().isInterrupted()) {
            return;
        }
        runToTheEnd.apply(head).thenAccept(ranToTheEnd -> {
            if (ranToTheEnd) {
                next(workloadUid);
            }
        });
    }

    private void next(String workloadUid) {
        boolean more;
        synchronized (lanes) {
            Queue<AgentCommand> lane = lanes.get(workloadUid);
            lane.remove();
            more = !lane.isEmpty();
            if (!more) {
                lanes.remove(workloadUid);
            }
        }
        if (more) {
            dispatch(workloadUid);
        }
    }

    /**
     * Interrupts the commands in progress and waits (bounded) for them to give up, so a replica
     * that lost leadership stops acting on the cluster before it returns; queued commands are dropped.
     */
    @Override
    public void close() {
        workers.shutdownNow();
        try {
            if (!workers.awaitTermination(closePatience.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("command lanes still busy {} after being stopped", closePatience);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
