package dev.platform.scheduler.commit;

import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.reason.EvictionReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.reason.PreemptionReason;
import dev.platform.scheduler.core.lifecycle.LifecycleDecision;
import dev.platform.scheduler.core.placement.SlicePlacement;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.scheduler.workload.WorkloadTransitions.Expected;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a decider above the core decided for one workload, as a value: the admission cycle, priority-only
 * placement, hotswap, the lifecycle timers and failed starts all return these, and {@link DecisionCommitter}
 * alone writes them. Each is guarded: by the version its decider read, or by the agent command whose result it
 * follows; one that finds the workload changed meanwhile does not land.
 */
public sealed interface WorkloadDecision {

    UUID uid();

    /** The workload as its agent names it, for the START or RESTART that follows an admission. */
    record Subject(UUID uid, String namespace, String name, String priorityClassName) {

        public static Subject of(WorkloadRow row) {
            return new Subject(row.uid(), row.namespace(), row.name(), row.priorityClassName());
        }
    }

    /**
     * Where an admitted workload goes: its pools, and the flavor whose node labels and tolerations its pods get
     * (null: none).
     */
    record Placed(SlicePlacement.Placement placement, String flavor, Map<String, String> nodeLabels,
                  List<ResourceFlavorManifest.Toleration> tolerations) {

        public Placed {
            tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
        }

        /** On a flavor without tolerations. */
        public Placed(SlicePlacement.Placement placement, String flavor, Map<String, String> nodeLabels) {
            this(placement, flavor, nodeLabels, List.of());
        }
    }

    /** What the agent is told once a workload's quota is released. */
    enum AfterRelease {
        /** Its pods leave the cluster; its JobSet stays, suspended (Kueue suspends an evicted workload's job). */
        STOP,
        /** Its JobSet goes from the cluster. */
        DELETE,
        /** Nothing: the agent already gave up on it. */
        NOTHING
    }

    /**
     * Pending -> Admitted with quota (the admission cycle); started where {@code placed} says, or quota-only. With
     * {@code admissionChecks} its quota is only reserved: it waits for them, unplaced and not started.
     */
    record Admit(Subject subject, long expectedVersion, StoredAdmission admission,
                 List<WorkloadTransitions.QuotaUse> quota, Placed placed, List<String> admissionChecks)
            implements WorkloadDecision {

        public Admit {
            admissionChecks = List.copyOf(admissionChecks);
        }

        public Admit(Subject subject, long expectedVersion, StoredAdmission admission,
                     List<WorkloadTransitions.QuotaUse> quota, Placed placed) {
            this(subject, expectedVersion, admission, quota, placed, List.of());
        }

        @Override
        public UUID uid() {
            return subject.uid();
        }
    }

    /** A quota-only admission (made while no cluster was connected) put on node pools and started. */
    record Place(Subject subject, long expectedVersion, StoredAdmission admission, Placed placed)
            implements WorkloadDecision {
        @Override
        public UUID uid() {
            return subject.uid();
        }
    }

    /** Pending -> Admitted without quota (priority-only mode: no queue name), started on its pools. */
    record AdmitByPriority(Subject subject, long expectedVersion, StoredAdmission admission, Placed placed,
                           String message) implements WorkloadDecision {
        @Override
        public UUID uid() {
            return subject.uid();
        }
    }

    /** Re-placed on new pools with its quota kept (a hotswap's recovery), restarted there. */
    record Restart(Subject subject, long expectedVersion, StoredAdmission admission, Placed placed, String message)
            implements WorkloadDecision {
        @Override
        public UUID uid() {
            return subject.uid();
        }
    }

    /** Who preempted a victim, for the audit row of its eviction. */
    record Preemption(PreemptionReason reason, PreemptionEvent.Party preemptor, PreemptionEvent.Party victim) {
    }

    /**
     * Quota taken away, requeued at its original place (a preemption victim: {@code preemption} says by whom; or
     * drained by a stop policy, or deactivated); its pods stop.
     */
    record Evict(UUID uid, long expectedVersion, EvictionReason reason, String message, Preemption preemption)
            implements WorkloadDecision {
    }

    /** Back to Pending at its original place after its node pools failed (Kueue's NodeFailures eviction). */
    record Requeue(UUID uid, Expected expected, EvictionReason reason, String message, String requeuedMessage,
                   AfterRelease then, boolean endsHotswap) implements WorkloadDecision {
    }

    /** Failed, its quota released: a JobSet that could not start, or restarts exhausted. */
    record Fail(UUID uid, Expected expected, String reason, String message, AfterRelease then)
            implements WorkloadDecision {
    }

    /**
     * What the lifecycle timers decided (a pods-ready timeout, a failed start to retry, an execution limit):
     * requeued with backoff or deactivated, its pods stopped. {@code queueAtEviction}: Kueue's
     * requeuingStrategy.timestamp Eviction; {@code maximumExecutionTimeSeconds} names the limit in the timeline.
     */
    record Lifecycle(UUID uid, Expected expected, LifecycleDecision decision, boolean queueAtEviction,
                     Integer maximumExecutionTimeSeconds) implements WorkloadDecision {
    }

    /** Why a Pending workload waits, and the condition that says so (set False) in its timeline. */
    record Wait(UUID uid, PendingReason reason, String message, String condition) implements WorkloadDecision {
    }

    /**
     * A hotswap: {@code victims} evicted for the disrupted workload, whose {@code fate} is a {@link Restart} on
     * the replacement pools, a {@link Requeue} (no replacement) or a {@link Fail} (restarts exhausted); the
     * hotswap event records it with the victims whose eviction landed.
     */
    record Hotswap(Disruption disruption, WorkloadRow disrupted, List<Evict> victims, WorkloadDecision fate)
            implements WorkloadDecision {

        /**
         * What the disruption looked like when it was detected: the pool's reasons as its agent reported them, and
         * {@code choiceNote} (null for a first choice) when victims are chosen again because earlier ones could not be
         * evicted.
         */
        public record Disruption(String cluster, String pool, List<String> nodes, List<NodeHealthReason> reasons,
                                 Instant detectedAt, String choiceNote) {

            public Disruption {
                reasons = List.copyOf(reasons);
            }

            public Disruption(String cluster, String pool, List<String> nodes, List<NodeHealthReason> reasons,
                              Instant detectedAt) {
                this(cluster, pool, nodes, reasons, detectedAt, null);
            }

            /** The reasons as messages and the hotswap event show them. */
            public String reason() {
                String reasons = String.join(", ", this.reasons.stream().map(Enum::name).toList());
                return choiceNote == null ? reasons : reasons + "; " + choiceNote;
            }
        }

        public Hotswap {
            if (!(fate instanceof Restart || fate instanceof Requeue || fate instanceof Fail)) {
                throw new IllegalArgumentException("a hotswap restarts, requeues or fails: " + fate);
            }
            victims = List.copyOf(victims);
        }

        @Override
        public UUID uid() {
            return disrupted.uid();
        }
    }
}
