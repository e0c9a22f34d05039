package dev.platform.scheduler.kubernetes.handlers;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.scheduler.kubernetes.registry.ObjectStore;
import dev.platform.scheduler.kubernetes.registry.Objects;
import dev.platform.scheduler.kubernetes.registry.ResourceKind;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * This replica's watch cache, kube-apiserver's in small: per watched kind, the change log read once (as an Admin
 * reads it), each change rendered once, the latest {@value #KEPT} kept; every watch of the kind takes from it what
 * its caller may read and its selectors select, and an event's bytes are written once per version and format for
 * all the watches that send it. A hundred watches then cost one read of the log, not a hundred. Only kinds whose
 * readers differ by namespace alone share a feed ({@link ObjectStore#visibleByNamespace()}); a watch of any other
 * kind, or one from a revision older than what its feed keeps, reads the log itself until it catches up.
 * {@link ChangeLog}'s thread advances the feeds; a feed nobody watches is not read, and starts afresh when watched.
 */
public final class WatchFeeds {

    private static final Logger log = LoggerFactory.getLogger(WatchFeeds.class);

    /** Changes kept per kind (tens of megabytes of objects): at a thousand changes a second, five seconds of lag. */
    static final int KEPT = 5_000;
    private static final int BATCH = 500;
    private static final Caller READER = new Caller("system:kubernetes-api-watch-cache", ClusterRole.Admin, List.of());

    private final Map<String, Feed> feeds = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * The kind's feed; started at {@code from} when nobody watched it: the watch's own revision, or the log's committed
     * one if that is earlier, so that watches begun together from one revision (informers after their list) share it.
     */
    Feed join(ResourceKind kind, long from) {
        Feed feed = feeds.computeIfAbsent(kind.group() + "/" + kind.plural(), key -> new Feed(kind));
        feed.join(from);
        return feed;
    }

    /** Reads every watched kind's changes up to {@code committed}, every one up to which is committed. */
    void advance(long committed) {
        for (Feed feed : feeds.values()) {
            try {
                feed.advance(committed);
            } catch (RuntimeException e) {
                // kept where it was: the next poll reads the same changes again
                log.warn("could not read the changes of {}: {}", feed.kind.plural(), e.getMessage());
            }
        }
    }

    /** Serves watches again after {@link #close}: the feeds start afresh when next watched. */
    void open() {
        feeds.clear();
        closed = false;
    }

    /** Ends every watch: this replica is shutting down. */
    void close() {
        closed = true;
        feeds.values().forEach(Feed::wake);
    }

    boolean closed() {
        return closed;
    }

    /** A change as the feed keeps it: the object (never changed once kept) and its encodings, made when first sent. */
    static final class Entry {
        final ObjectStore.Change change;
        final String namespace;
        private final Map<String, byte[]> encoded = new ConcurrentHashMap<>(2);

        Entry(ObjectStore.Change change) {
            this.change = change;
            this.namespace = Objects.namespace(change.object());
        }

        /** The event's bytes in one version and format ({@code form}), encoded once for every watch that asks. */
        byte[] encoded(String form, Function<Entry, byte[]> encoder) {
            return encoded.computeIfAbsent(form, f -> encoder.apply(this));
        }
    }

    /** Entries after a watch's revision, and the revision the watch has then read up to. */
    record Slice(List<Entry> entries, long readUpTo) {
    }

    /** One kind's shared read of the change log. */
    final class Feed {
        private final ResourceKind kind;
        private final ArrayList<Entry> entries = new ArrayList<>();
        /** Every change after this revision is among the entries (or past {@link #upTo}). */
        private long floor;
        /** The revision the log has been read up to. */
        private long upTo;
        private int watchers;
        private boolean stale = true;
        /** Counts the restarts after nobody watched, so that a read begun before one is not kept after it. */
        private long generation;

        Feed(ResourceKind kind) {
            this.kind = kind;
        }

        synchronized void join(long latest) {
            watchers++;
            if (stale) {
                entries.clear();
                floor = latest;
                upTo = latest;
                stale = false;
                generation++;
            }
        }

        synchronized void leave() {
            watchers--;
        }

        private void advance(long committed) {
            long from;
            long started;
            synchronized (this) {
                if (watchers == 0) {
                    stale = true;
                    return;
                }
                if (upTo >= committed) {
                    return;
                }
                from = upTo;
                started = generation;
            }
            List<Entry> read = new ArrayList<>();
            long readUpTo = from;
            ObjectStore.Changes changes;
            // at most what is kept per poll: a feed far behind catches up over several polls, its memory bounded
            do {
                changes = kind.store().changesAfter(readUpTo, BATCH, READER);
                changes.changes().forEach(change -> read.add(new Entry(change)));
                readUpTo = Math.max(readUpTo, changes.readUpTo());
            } while (changes.more() && !closed && read.size() < KEPT);
            // every change up to the committed revision was committed before the reads began, so none remains
            readUpTo = changes.more() ? readUpTo : Math.max(readUpTo, committed);
            synchronized (this) {
                if (generation != started) {
                    return;
                }
                entries.addAll(read);
                upTo = readUpTo;
                if (entries.size() > KEPT) {
                    List<Entry> dropped = entries.subList(0, entries.size() - KEPT);
                    floor = dropped.get(dropped.size() - 1).change.revision();
                    dropped.clear();
                }
                notifyAll();
            }
        }

        /**
         * At most {@code limit} entries after {@code revision}; null when the feed no longer keeps them all (the watch
         * reads the log itself).
         */
        synchronized Slice after(long revision, int limit) {
            if (revision < floor) {
                return null;
            }
            int first = firstAfter(revision);
            int end = Math.min(entries.size(), first + limit);
            List<Entry> slice = List.copyOf(entries.subList(first, end));
            long readUpTo = end < entries.size() ? slice.get(slice.size() - 1).change.revision() : upTo;
            return new Slice(slice, Math.max(revision, readUpTo));
        }

        private int firstAfter(long revision) {
            int low = 0;
            int high = entries.size();
            while (low < high) {
                int middle = (low + high) >>> 1;
                if (entries.get(middle).change.revision() <= revision) {
                    low = middle + 1;
                } else {
                    high = middle;
                }
            }
            return low;
        }

        /** Waits until the feed has read past {@code revision}, {@code timeout} passes, or the replica shuts down. */
        synchronized void awaitAfter(long revision, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (upTo <= revision && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                wait(Math.max(1, left / 1_000_000));
            }
        }

        private synchronized void wake() {
            notifyAll();
        }
    }
}
