package dev.platform.scheduler.core;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.Workload;

/** A decision of one admission cycle, for the adapter to persist and execute. */
public sealed interface Decision permits Decision.Admit, Decision.Preempt, Decision.Pending, Decision.Evict {

    Workload workload();

    /** Admit {@code workload} with {@code admission}; the state already counts its usage. */
    record Admit(Workload workload, Admission admission) implements Decision {
    }

    /**
     * Evict {@code workload} (the victim) to make room for {@code preemptor}. The victim keeps its quota until the
     * eviction is reported: the scheduler reports {@link SchedulerState#evictionCommitted} once the eviction is in
     * the database (quota free at once, the victim waits at its original place); the scenario replays may report
     * {@link SchedulerState#evictionCompleted} instead, Kueue's moment (pods gone, requeued as of then).
     */
    record Preempt(Workload workload, String victimClusterQueue, Workload preemptor, String preemptorClusterQueue,
                   PreemptionReason reason, String message) implements Decision {
    }

    /**
     * {@code workload} stays pending. {@code inadmissible} tells that it waits in the inadmissible set until
     * something changes, rather than being retried next cycle.
     */
    record Pending(Workload workload, PendingReason reason, String message, boolean inadmissible) implements Decision {
    }

    /**
     * Evict an admitted workload: its queue is stopped with HoldAndDrain, or it was deactivated. A deactivated
     * workload is not requeued once its eviction is committed.
     */
    record Evict(Workload workload, String clusterQueue, EvictionReason reason, String message) implements Decision {
    }
}
