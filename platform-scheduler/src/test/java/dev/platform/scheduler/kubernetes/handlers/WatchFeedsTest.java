package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.kubernetes.registry.Access;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import dev.platform.scheduler.kubernetes.registry.Verb;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watch cache: one read of the log per poll for every watch of a kind, each event encoded once per form, what is
 * not kept any more read by the watch itself, a kind nobody watches not read, and a shutdown that ends every wait.
 */
class WatchFeedsTest {

    private final Log log = new Log();
    private final ResourceKind kind = new ResourceKind("kueue.x-k8s.io", List.of("v1beta2"), "Workload", "workloads",
            "workload", true, List.of(), List.of(), Verb.READ_WRITE, List.of(), version -> Map.of(), log,
            Access.namespaced(), (object, version) -> object, List.of());
    private final WatchFeeds feeds = new WatchFeeds();

    @Test
    void aHundredWatchesOfAKindCostOneReadOfTheLogAndOneEncodingOfEachChange() {
        List<WatchFeeds.Feed> watches = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            watches.add(feeds.join(kind, 10));
        }
        log.change(11, "team-a", "w1");
        log.change(12, "team-b", "w2");
        log.change(14, "team-a", "w3");

        feeds.advance(15);

        assertThat(log.reads).hasValue(1);
        AtomicInteger encodings = new AtomicInteger();
        for (WatchFeeds.Feed watch : watches) {
            WatchFeeds.Slice slice = watch.after(10, 500);
            assertThat(slice.entries()).extracting(e -> e.change.revision()).containsExactly(11L, 12L, 14L);
            assertThat(slice.readUpTo()).as("past the last change, up to the committed revision").isEqualTo(15);
            for (WatchFeeds.Entry entry : slice.entries()) {
                entry.encoded("v1beta2", e -> {
                    encodings.incrementAndGet();
                    return e.change.type().getBytes(StandardCharsets.UTF_8);
                });
            }
        }
        assertThat(encodings).hasValue(3);
    }

    @Test
    void aSliceEndsAtItsLimitAndAWatchAheadOfTheFeedKeepsItsRevision() {
        WatchFeeds.Feed feed = feeds.join(kind, 0);
        for (int revision = 1; revision <= 5; revision++) {
            log.change(revision, "team-a", "w" + revision);
        }
        feeds.advance(5);

        WatchFeeds.Slice first = feed.after(0, 2);
        assertThat(first.entries()).extracting(e -> e.change.revision()).containsExactly(1L, 2L);
        assertThat(first.readUpTo()).isEqualTo(2);
        assertThat(feed.after(2, 10).entries()).extracting(e -> e.change.revision()).containsExactly(3L, 4L, 5L);
        WatchFeeds.Slice ahead = feed.after(9, 10);
        assertThat(ahead.entries()).isEmpty();
        assertThat(ahead.readUpTo()).as("listed at a revision the feed has not read yet").isEqualTo(9);
    }

    @Test
    void aWatchFromBeforeWhatTheFeedKeepsReadsTheLogItself() {
        WatchFeeds.Feed feed = feeds.join(kind, 100);
        assertThat(feed.after(99, 500)).as("before the feed began").isNull();

        for (int revision = 101; revision <= 100 + WatchFeeds.KEPT + 10; revision++) {
            log.change(revision, "team-a", "w" + revision);
        }
        feeds.advance(100 + WatchFeeds.KEPT + 10);
        feeds.advance(100 + WatchFeeds.KEPT + 10);

        assertThat(feed.after(105, 500)).as("its changes were dropped for newer ones").isNull();
        assertThat(feed.after(110, 1).entries()).extracting(e -> e.change.revision()).containsExactly(111L);
    }

    @Test
    void aFeedFarBehindCatchesUpOverSeveralPollsHoldingNoMoreThanItKeeps() {
        WatchFeeds.Feed feed = feeds.join(kind, 0);
        int behind = 2 * WatchFeeds.KEPT + 100;
        for (int revision = 1; revision <= behind; revision++) {
            log.change(revision, "team-a", "w" + revision);
        }

        feeds.advance(behind);
        WatchFeeds.Slice first = feed.after(0, WatchFeeds.KEPT * 3);
        assertThat(first.entries()).hasSize(WatchFeeds.KEPT);
        assertThat(first.readUpTo()).as("read up to what it holds, not the committed revision").isEqualTo(WatchFeeds.KEPT);

        feeds.advance(behind);
        feeds.advance(behind);
        WatchFeeds.Slice caughtUp = feed.after(behind - 1, 10);
        assertThat(caughtUp.entries()).extracting(e -> e.change.revision()).containsExactly((long) behind);
        assertThat(caughtUp.readUpTo()).isEqualTo(behind);
    }

    @Test
    void aKindNobodyWatchesIsNotReadAndItsFeedStartsAfreshWhenWatchedAgain() {
        feeds.join(kind, 0).leave();
        log.change(1, "team-a", "w1");

        feeds.advance(1);
        assertThat(log.reads).hasValue(0);

        WatchFeeds.Feed again = feeds.join(kind, 1);
        log.change(2, "team-a", "w2");
        feeds.advance(2);
        assertThat(again.after(0, 500)).as("revision 1 passed while nobody watched").isNull();
        assertThat(again.after(1, 500).entries()).extracting(e -> e.change.revision()).containsExactly(2L);
    }

    @Test
    void aReadThatFailsIsReadAgainAtTheNextPoll() {
        WatchFeeds.Feed feed = feeds.join(kind, 0);
        log.change(1, "team-a", "w1");
        log.failNext = true;

        feeds.advance(1);
        assertThat(feed.after(0, 500).entries()).isEmpty();

        feeds.advance(1);
        assertThat(feed.after(0, 500).entries()).extracting(e -> e.change.revision()).containsExactly(1L);
    }

    @Test
    void closingEndsEveryWait() throws Exception {
        WatchFeeds.Feed feed = feeds.join(kind, 0);
        CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
            try {
                feed.awaitAfter(0, Duration.ofHours(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });

        feeds.close();

        waiting.get(30, TimeUnit.SECONDS);
        assertThat(feeds.closed()).isTrue();
    }

    /** A kind's change log in memory, read as the stores read theirs: by revision, a batch at a time. */
    private static final class Log implements ObjectStore {
        private final List<Change> changes = new ArrayList<>();
        private final AtomicInteger reads = new AtomicInteger();
        private boolean failNext;

        void change(long revision, String namespace, String name) {
            changes.add(new Change(revision, "MODIFIED", Map.of("metadata", Map.of("namespace", namespace,
                    "name", name, "resourceVersion", String.valueOf(revision)))));
        }

        @Override
        public boolean visibleByNamespace() {
            return true;
        }

        @Override
        public Changes changesAfter(long revision, int limit, Caller caller) {
            if (failNext) {
                failNext = false;
                throw new IllegalStateException("the database is away");
            }
            reads.incrementAndGet();
            List<Change> read = changes.stream().filter(c -> c.revision() > revision).limit(limit).toList();
            return new Changes(read, read.isEmpty() ? revision : read.get(read.size() - 1).revision(),
                    read.size() == limit);
        }

        @Override
        public java.util.Optional<Map<String, Object>> get(String namespace, String name, Caller caller) {
            return java.util.Optional.empty();
        }

        @Override
        public Page list(ListQuery query, Caller caller) {
            return new Page(List.of(), false);
        }
    }
}
