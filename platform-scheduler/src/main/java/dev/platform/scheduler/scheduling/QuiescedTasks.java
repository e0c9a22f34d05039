package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.leadership.LeadershipLost;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Maintenance that rewrites tables behind the scheduling loop's back, queued to run on the loop
 * thread between turns; each completes once the loop has rebuilt its state after it.
 */
final class QuiescedTasks {

    /** Maintenance to run between turns; {@code done} completes once the state is rebuilt after it. */
    private record Task(Runnable work, CompletableFuture<Void> done) {

        boolean run() {
            try {
                work.run();
                return true;
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
                return false;
            }
        }
    }

    private final ConcurrentLinkedQueue<Task> queued = new ConcurrentLinkedQueue<>();

    /** Queues {@code work}; the future completes after {@link #runAll} ran it and the rebuild that followed. */
    CompletableFuture<Void> add(Runnable work) {
        Task task = new Task(work, new CompletableFuture<>());
        queued.add(task);
        return task.done();
    }

    /** Runs {@code work} at once, for when no loop runs to rebuild after it. */
    static CompletableFuture<Void> runNow(Runnable work) {
        Task task = new Task(work, new CompletableFuture<>());
        if (task.run()) {
            task.done().complete(null);
        }
        return task.done();
    }

    /**
     * Runs what is queued, then {@code rebuild} once if anything ran; a failed rebuild fails every
     * task that ran before it, except when leadership was lost meanwhile: then the loop steps down
     * with no state to go stale, the next leader rebuilds from the database, and the tasks are done.
     */
    void runAll(Runnable rebuild) {
        List<Task> ran = new ArrayList<>();
        Task task;
        while ((task = queued.poll()) != null) {
            if (task.run()) {
                ran.add(task);
            }
        }
        if (ran.isEmpty()) {
            return;
        }
        try {
            rebuild.run();
            ran.forEach(t -> t.done().complete(null));
        } catch (LeadershipLost e) {
            ran.forEach(t -> t.done().complete(null));
            throw e;
        } catch (RuntimeException e) {
            ran.forEach(t -> t.done().completeExceptionally(e));
            throw e;
        }
    }
}
