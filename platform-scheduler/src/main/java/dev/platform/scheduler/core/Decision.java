package dev.platform.scheduler.core;

import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.model.Admission;
import dev.platform.scheduler.core.model.Workload;

import java.util.List;

/** A decision of one admission cycle, for the adapter to persist and execute. */
public sealed interface Decision permits Decision.Admit, Decision.Preempt, Decision.Pending, Decision.Evict {

    Workload workload();

    /**
     * Admit {@code workload} with {@code admission}; the state already counts its usage. With
     * {@code admissionChecks} (the ClusterQueue's checks for the admission's flavors, in name order) this is Kueue's
     * quota reservation: the workload is admitted once every check is Ready.
     */
    record Admit(Workload workload, Admission admission, List<String> admissionChecks) implements Decision {

        public Admit {
            admissionChecks = List.copyOf(admissionChecks);
        }

        /** An admission on a ClusterQueue without checks for its flavors: final at once. */
        public Admit(Workload workload, Admission admission) {
            this(workload, admission, List.of());
        }

        /** Whether the workload only reserved quota and waits for admission checks. */
        public boolean awaitsChecks() {
            return !admissionChecks.isEmpty();
        }
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
