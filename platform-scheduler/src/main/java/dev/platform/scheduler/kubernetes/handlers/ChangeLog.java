package dev.platform.scheduler.kubernetes.handlers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The one thread of this replica that looks at the change log: it reads the committed revision every
 * {@code interval}, reads the watched kinds' changes up to it into the {@link WatchFeeds}, and wakes the watches, so a
 * hundred watches cost one poll and one read, not a hundred. Every replica runs one, so every replica serves watches.
 * Closed, it ends every watch (a client watches again, from where it was, on another replica or after the restart).
 */
public final class ChangeLog implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ChangeLog.class);

    private final LongSupplier committedRevision;
    private final LongSupplier compactedRevision;
    private final Duration interval;
    private final Object signal = new Object();
    private final WatchFeeds feeds = new WatchFeeds();
    private volatile long latest;
    private volatile boolean running;
    private volatile Thread poller;

    public ChangeLog(LongSupplier committedRevision, LongSupplier compactedRevision, Duration interval) {
        this.committedRevision = committedRevision;
        this.compactedRevision = compactedRevision;
        this.interval = interval;
    }

    /** Starts reading the log; after a {@link #close} it reads again, for watches begun after it. */
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        feeds.open();
        poller = new Thread(this::poll, "kubernetes-api-change-log");
        poller.setDaemon(true);
        poller.start();
    }

    private void poll() {
        while (running && Thread.currentThread() == poller) {
            try {
                long now = committedRevision.getAsLong();
                feeds.advance(now);
                if (now != latest) {
                    latest = now;
                    synchronized (signal) {
                        signal.notifyAll();
                    }
                }
            } catch (RuntimeException e) {
                log.warn("could not read the change log's revision: {}", e.getMessage());
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    WatchFeeds feeds() {
        return feeds;
    }

    /** Whether it is closed: the replica is shutting down and every watch ends. */
    boolean closed() {
        return !running;
    }

    /** The latest committed revision this replica has seen. */
    public long latest() {
        return latest;
    }

    /** The revision below which the log is not whole: a watch from before it is too old. */
    public long compacted() {
        return compactedRevision.getAsLong();
    }

    /** Waits until the committed revision passes {@code revision}, or {@code timeout} passes. */
    public void awaitAfter(long revision, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (signal) {
            while (latest <= revision && running) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                signal.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    /** Stops reading the log and ends every watch. */
    @Override
    public synchronized void close() {
        running = false;
        feeds.close();
        if (poller != null) {
            poller.interrupt();
        }
        synchronized (signal) {
            signal.notifyAll();
        }
    }
}
