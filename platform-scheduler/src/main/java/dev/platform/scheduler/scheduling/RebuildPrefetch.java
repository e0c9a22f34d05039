package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The first rebuild's reading done while the rest of the application still starts: the change feed's position,
 * then every active workload, read and decoded on a thread of its own from the moment the loop is created (the
 * database is migrated by then), instead of after the whole context has started. At 150,000 active workloads
 * that reading is a few seconds of a start-up, and the context's last seconds leave a core free for it.
 *
 * <p>Used by the first rebuild only, and only while it is still the state: when no workload changed since its
 * position (a rebuild restores what the rows say, such as the node pools an admitted workload holds, that the
 * change feed's reconciling does not), and while {@link #MAXIMUM_AGE} old. A standby replica that takes over
 * later reads afresh, and so does every rebuild after maintenance rewrote tables behind the loop's back
 * ({@link #discard}).
 */
final class RebuildPrefetch {

    /** Workloads as of a change-feed position. */
    record Snapshot(long position, List<WorkloadRow> active) {
    }

    static final Duration MAXIMUM_AGE = Duration.ofSeconds(60);
    private static final Logger log = LoggerFactory.getLogger(RebuildPrefetch.class);

    private final AtomicReference<CompletableFuture<Read>> reading = new AtomicReference<>();
    private final Clock clock;

    /** A snapshot and when its reading began: its age counts from there. */
    private record Read(Snapshot snapshot, Instant at) {
    }

    private RebuildPrefetch(Clock clock) {
        this.clock = clock;
    }

    /** Starts reading {@code workloads} on a thread of its own: the feed's position first, then the rows. */
    static RebuildPrefetch start(WorkloadStore workloads, Clock clock) {
        return start(() -> {
            long position = workloads.latestChange();
            return new Snapshot(position, workloads.active());
        }, clock);
    }

    /** Starts {@code read} on a thread of its own. */
    static RebuildPrefetch start(Supplier<Snapshot> read, Clock clock) {
        RebuildPrefetch prefetch = new RebuildPrefetch(clock);
        CompletableFuture<Read> reading = new CompletableFuture<>();
        prefetch.reading.set(reading);
        Instant begun = clock.instant();
        Thread thread = new Thread(() -> {
            try {
                long started = System.nanoTime();
                Snapshot snapshot = read.get();
                log.info("read {} active workloads ahead of the first rebuild in {} ms", snapshot.active().size(),
                        (System.nanoTime() - started) / 1_000_000);
                reading.complete(new Read(snapshot, begun));
            } catch (RuntimeException e) {
                reading.completeExceptionally(e);
            }
        }, "rebuild-prefetch");
        thread.setDaemon(true);
        thread.start();
        return prefetch;
    }

    /** Nothing to use, for a loop that reads at every rebuild. */
    static RebuildPrefetch none() {
        return new RebuildPrefetch(Clock.systemUTC());
    }

    /**
     * The snapshot, once, waiting for the reading to finish; empty after the first call, after {@link #discard},
     * when a workload changed since its position ({@code latestChange}, read after the reading finished), when it
     * is older than {@link #MAXIMUM_AGE}, or when the reading failed (logged: the rebuild then reads for itself).
     */
    Optional<Snapshot> take(LongSupplier latestChange) {
        CompletableFuture<Read> read = reading.getAndSet(null);
        if (read == null) {
            return Optional.empty();
        }
        try {
            Read done = read.join();
            if (Duration.between(done.at(), clock.instant()).compareTo(MAXIMUM_AGE) > 0
                    || latestChange.getAsLong() != done.snapshot().position()) {
                return Optional.empty();
            }
            return Optional.of(done.snapshot());
        } catch (CompletionException e) {
            log.warn("reading the workloads ahead of the first rebuild failed; the rebuild reads them itself",
                    e.getCause());
            return Optional.empty();
        }
    }

    /** Drops the snapshot once it is older than {@link #MAXIMUM_AGE}: a replica that waits to lead holds none. */
    void expire() {
        CompletableFuture<Read> read = reading.get();
        if (read != null && read.isDone() && (read.isCompletedExceptionally()
                || Duration.between(read.join().at(), clock.instant()).compareTo(MAXIMUM_AGE) > 0)) {
            reading.compareAndSet(read, null);
        }
    }

    /** Drops the snapshot: the tables were changed where the change feed does not see it. */
    void discard() {
        reading.set(null);
    }
}
