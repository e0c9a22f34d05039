package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.config.LocalQueueUsageStore;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.core.SchedulerState;
import dev.platform.scheduler.leadership.EpochFence;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.List;

/**
 * Admission fair sharing's memory between the core and PostgreSQL: a new state starts from the stored LocalQueue
 * usage (a restart or a change of leader keeps the history, as Kueue keeps it in the LocalQueues' status), and what
 * a turn changed is written back, fenced by the leader epoch so that a deposed leader does not overwrite its
 * successor's. Nothing is read or written when admission fair sharing is off.
 */
@Component
class LocalQueueUsageSync {

    private final LocalQueueUsageStore store;
    private final EpochFence fence;
    private final TransactionTemplate transactions;

    LocalQueueUsageSync(LocalQueueUsageStore store, EpochFence fence, TransactionTemplate transactions) {
        this.store = store;
        this.fence = fence;
        this.transactions = transactions;
    }

    /**
     * Gives a new state the stored usage, after the configuration (the LocalQueues) and before the workloads. A
     * state without admission fair sharing ignores it, and the stored scores go, so that the visibility API's
     * positions follow priority as the state does.
     */
    void restore(SchedulerState state, long epoch) {
        if (state.fairSharing().enabled()) {
            store.all().forEach(state.fairSharing()::restore);
            return;
        }
        transactions.executeWithoutResult(tx -> {
            fence.check(epoch);
            store.forgetScores();
        });
    }

    /** Writes the usage the last turn changed (samples, settled entry penalties). */
    void persist(SchedulerState state, long epoch) {
        List<LocalQueueUsage> changed = state.fairSharing().takeChanged();
        if (changed.isEmpty()) {
            return;
        }
        transactions.executeWithoutResult(tx -> {
            fence.check(epoch);
            store.write(changed);
        });
    }
}
