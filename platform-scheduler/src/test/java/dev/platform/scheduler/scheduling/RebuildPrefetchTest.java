package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.core.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first rebuild's read-ahead: used once, waited for when still reading, and never where it could be stale
 * (after a workload changed, after maintenance behind the loop's back, or long after it was read); a failed read
 * leaves the rebuild to read.
 */
class RebuildPrefetchTest {

    private final FakeClock clock = new FakeClock(Instant.parse("2026-03-01T12:00:00Z"));

    @Test
    void theFirstRebuildWaitsForTheSnapshotAndTakesItOnce() throws InterruptedException {
        CountDownLatch reading = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        RebuildPrefetch prefetch = RebuildPrefetch.start(() -> {
            await(reading);
            reads.incrementAndGet();
            return new RebuildPrefetch.Snapshot(42, List.of());
        }, clock);

        Thread release = new Thread(reading::countDown);
        release.start();
        assertThat(prefetch.take(() -> 42)).hasValueSatisfying(s -> assertThat(s.position()).isEqualTo(42));
        assertThat(prefetch.take(() -> 42)).as("a later rebuild reads for itself").isEmpty();
        assertThat(reads).hasValue(1);
        release.join();
    }

    @Test
    void maintenanceBehindTheLoopsBackDropsTheSnapshot() {
        RebuildPrefetch prefetch = RebuildPrefetch.start(() -> new RebuildPrefetch.Snapshot(7, List.of()), clock);

        prefetch.discard();

        assertThat(prefetch.take(() -> 42)).isEmpty();
    }

    @Test
    void aSnapshotOlderThanItsMaximumAgeIsNotUsed() {
        RebuildPrefetch prefetch = RebuildPrefetch.start(() -> new RebuildPrefetch.Snapshot(7, List.of()), clock);
        assertThat(prefetch.take(() -> 7)).isPresent();

        RebuildPrefetch late = RebuildPrefetch.start(() -> new RebuildPrefetch.Snapshot(7, List.of()), clock);
        late.expire();
        clock.advance(RebuildPrefetch.MAXIMUM_AGE.plus(Duration.ofSeconds(1)));

        assertThat(late.take(() -> 7)).as("a standby that takes over later reads afresh").isEmpty();
    }

    @Test
    void aSnapshotIsNotUsedOnceAWorkloadChangedAfterIt() {
        RebuildPrefetch prefetch = RebuildPrefetch.start(() -> new RebuildPrefetch.Snapshot(7, List.of()), clock);

        assertThat(prefetch.take(() -> 8))
                .as("what a rebuild restores beyond the feed (the pools admitted workloads hold) is read afresh")
                .isEmpty();
    }

    @Test
    void aFailedReadLeavesTheRebuildToRead() {
        RebuildPrefetch prefetch = RebuildPrefetch.start(() -> {
            throw new IllegalStateException("connection refused");
        }, clock);

        assertThat(prefetch.take(() -> 42)).isEmpty();
    }

    @Test
    void aLoopThatReadsAtEveryRebuildHasNothingAhead() {
        assertThat(RebuildPrefetch.none().take(() -> 0)).isEmpty();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
