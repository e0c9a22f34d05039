package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.cluster.NodePoolHealthChanged;
import dev.platform.scheduler.config.ConfigurationService.ConfigurationChanged;
import dev.platform.scheduler.workload.WorkloadService.WorkloadsChanged;
import org.springframework.stereotype.Component;
import org.springframework.transaction.event.TransactionPhase;
import org.springframework.transaction.event.TransactionalEventListener;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How the scheduling loop waits between turns: until a workload, the configuration or a node pool's
 * health changed (once the change is committed), someone asks for a turn, or a timeout.
 */
@Component
class LoopWakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private boolean woken;

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
    void onWorkloadsChanged(WorkloadsChanged event) {
        wake();
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
    void onConfigurationChanged(ConfigurationChanged event) {
        wake();
    }

    @TransactionalEventListener(phase = TransactionPhase.AFTER_COMMIT, fallbackExecution = true)
    void onNodePoolHealthChanged(NodePoolHealthChanged event) {
        wake();
    }

    /** Asks for a turn as soon as possible; a wake before the wait is not lost. */
    void wake() {
        lock.lock();
        try {
            woken = true;
            wakeUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits up to {@code timeout} unless woken since the last wait; false when the thread was interrupted. */
    boolean await(Duration timeout) {
        lock.lock();
        try {
            if (!woken) {
                wakeUp.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
            }
            woken = false;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }
}
