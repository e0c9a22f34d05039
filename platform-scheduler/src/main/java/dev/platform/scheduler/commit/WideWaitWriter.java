package dev.platform.scheduler.commit;

import dev.platform.scheduler.leadership.EpochFence;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.scheduler.workload.WorkloadTransitions.PendingNote;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Why a whole backlog waits, written by several connections at once: the first turn after a start notes every
 * pending workload (100,000 reasons with a timeline entry each took one statement about 4 s of one core of the
 * server, the other idle). Only for a turn with at least {@link #WIDE} waits; others write theirs in the turn's
 * own transaction.
 *
 * <p>Written after the turn's transaction committed and before the turn ends, so the next turn never writes
 * under it; each part in a transaction of its own that checks the epoch and holds the workload writers' lock in
 * its shared mode: the parts do not exclude each other, every other writer waits for them (and they for it), as
 * for the turn's own transaction. A workload is in one part only, and each part is in the timeline index's order.
 * A crash between the turn's commit and these leaves reasons unwritten, which the next leader's first turn writes.
 */
@Component
class WideWaitWriter implements DisposableBean {

    /** Fewer waits than this are written in the turn's transaction. */
    static final int WIDE = 10_000;
    private static final int WRITERS = 2;

    private final WorkloadTransitions transitions;
    private final EpochFence fence;
    private final TransactionTemplate transactions;
    private final ExecutorService writers;

    WideWaitWriter(WorkloadTransitions transitions, EpochFence fence, PlatformTransactionManager transactionManager) {
        this.transitions = transitions;
        this.fence = fence;
        this.transactions = new TransactionTemplate(transactionManager);
        AtomicInteger threads = new AtomicInteger();
        this.writers = Executors.newFixedThreadPool(WRITERS, task -> {
            Thread thread = new Thread(task, "wide-wait-writer-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Writes {@code waits} as the leader of {@code epoch}, as {@link WorkloadTransitions#recordPending} would in
     * one transaction (each condition's in turn, the last note of a workload), and returns when all landed.
     */
    void write(long epoch, Instant now, List<WorkloadDecision.Wait> waits) {
        Map<String, Map<UUID, PendingNote>> byCondition = new LinkedHashMap<>();
        waits.forEach(w -> byCondition.computeIfAbsent(w.condition(), c -> new LinkedHashMap<>())
                .put(w.uid(), new PendingNote(w.uid(), w.reason(), w.message())));
        byCondition.forEach((condition, notes) -> write(epoch, now, condition, new ArrayList<>(notes.values())));
    }

    /** One condition's notes, one a workload, in parts by workload order, all parts at once. */
    private void write(long epoch, Instant now, String condition, List<PendingNote> notes) {
        // PostgreSQL orders uuids as their text does
        notes.sort(Comparator.comparing(n -> n.uid().toString()));
        int size = (notes.size() + WRITERS - 1) / WRITERS;
        List<Future<?>> parts = new ArrayList<>();
        for (int from = 0; from < notes.size(); from += size) {
            List<PendingNote> part = notes.subList(from, Math.min(notes.size(), from + size));
            parts.add(writers.submit(() -> transactions.executeWithoutResult(status -> {
                fence.check(epoch);
                transitions.lockChangesShared();
                transitions.recordPending(part, condition, now);
            })));
        }
        RuntimeException failed = null;
        for (Future<?> part : parts) {
            try {
                part.get();
            } catch (ExecutionException e) {
                if (failed == null) {
                    failed = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the waits were written", e);
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public void destroy() {
        writers.shutdownNow();
    }
}
