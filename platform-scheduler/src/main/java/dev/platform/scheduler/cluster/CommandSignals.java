package dev.platform.scheduler.cluster;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Wakes the command polls held open for a cluster when this replica commits a command for it.
 * A generation per cluster closes the gap between a poll's query and its wait: a poll waits only
 * while the generation is still the one it read before querying. On shutdown every held poll is
 * released (stopped before the web server's graceful shutdown, which would otherwise wait for them).
 */
@Component
class CommandSignals implements SmartLifecycle {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<String, Long> generations = new HashMap<>();
    private boolean running;

    long generation(String cluster) {
        lock.lock();
        try {
            return generations.getOrDefault(cluster, 0L);
        } finally {
            lock.unlock();
        }
    }

    void signal(String cluster) {
        lock.lock();
        try {
            generations.merge(cluster, 1L, Long::sum);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the cluster's generation moves past {@code seen} or {@code nanos} pass. */
    void await(String cluster, long seen, long nanos) throws InterruptedException {
        lock.lock();
        try {
            long remaining = nanos;
            while (remaining > 0 && running && generations.getOrDefault(cluster, 0L) == seen) {
                remaining = changed.awaitNanos(remaining);
            }
        } finally {
            lock.unlock();
        }
    }

    /** False once the application stops: held polls answer at once. */
    boolean isOpen() {
        lock.lock();
        try {
            return running;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void start() {
        lock.lock();
        try {
            running = true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void stop() {
        lock.lock();
        try {
            running = false;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean isRunning() {
        return isOpen();
    }
}
