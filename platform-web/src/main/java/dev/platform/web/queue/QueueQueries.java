package dev.platform.web.queue;

import dev.platform.api.reason.WaitReason;
import dev.platform.api.reason.PendingReason;
import dev.platform.api.identity.Caller;
import dev.platform.web.console.ForecastView;
import dev.platform.web.console.PendingReasons;
import dev.platform.web.console.PodSetPlacement;
import dev.platform.web.console.Priorities;
import dev.platform.web.console.QueueUsageView;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What the queue pages read: a ClusterQueue's pending workloads in queue order and its admitted ones. */
public interface QueueQueries {

    /** The ClusterQueues the caller sees: all for Ops and Admin, else those their teams' LocalQueues point to. */
    List<String> clusterQueueNames(Caller caller);

    /**
     * Active workloads without a queue name (priority-only mode), highest priority first, at most
     * {@code limit}; those in namespaces the caller does not read come as {@link PriorityOnlyRow#hidden hidden} rows.
     */
    List<PriorityOnlyRow> priorityOnly(Caller caller, int limit);

    /**
     * One page of the pending workloads from {@code offset}, and the admitted workloads (at most {@code limit}).
     * Workloads in namespaces the caller does not read keep their place but not their names: hidden rows.
     */
    Optional<QueuePage> clusterQueue(Caller caller, String name, int offset, int limit);

    /** {@code admissionChecks}: the checks the ClusterQueue's admissions wait for, in the order it names them. */
    record QueuePage(QueueUsageView queue, List<PendingRow> pending, List<AdmittedRow> admitted,
                     List<AdmissionCheckRow> admissionChecks) {

        public QueuePage {
            admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
        }

        /** A ClusterQueue without admission checks. */
        public QueuePage(QueueUsageView queue, List<PendingRow> pending, List<AdmittedRow> admitted) {
            this(queue, pending, admitted, List.of());
        }
    }

    /**
     * An admission check of the ClusterQueue: its controller (null when no AdmissionCheck of that name exists: Kueue
     * keeps the workloads waiting), the flavors it applies to (empty: every flavor) and, for a ProvisioningRequest
     * check, its config's class (null otherwise).
     */
    record AdmissionCheckRow(String name, String controllerName, List<String> onFlavors, String provisioningClassName) {

        public AdmissionCheckRow {
            onFlavors = onFlavors == null ? List.of() : List.copyOf(onFlavors);
        }

        public String flavorsText() {
            return onFlavors.isEmpty() ? "every flavor" : String.join(", ", onFlavors);
        }
    }

    /**
     * A pending workload with its priority class (null when none set its priority), its 0-based positions (null for
     * an inadmissible one, which has none), when it
     * was queued, why it waits, when it should start and who submitted it (null when unknown).
     */
    record PendingRow(String namespace, String name, String localQueue, String priorityClassName, int priority,
                      Integer positionInClusterQueue, Integer positionInLocalQueue, Instant queuedAt, WaitReason reason,
                      String reasonMessage, ForecastView forecast, String submittedBy) {

        /** Another team's workload at this position: counted, not named. */
        public static PendingRow hidden(Integer positionInClusterQueue) {
            return new PendingRow(null, null, null, null, 0, positionInClusterQueue, null, null, null, null, null, null);
        }

        public String priorityText() {
            return Priorities.describe(priorityClassName, priority);
        }

        public boolean isHidden() {
            return namespace == null;
        }

        public String reasonText() {
            return PendingReasons.describe(reason);
        }
    }

    /**
     * A workload outside Kueue's queues: placed by priority alone, on the node pools in
     * {@code podSets} once admitted, or waiting for {@code reason}.
     */
    record PriorityOnlyRow(String namespace, String name, String priorityClassName, int priority, String state,
                           WaitReason reason, String reasonMessage, List<PodSetPlacement> podSets) {

        /** Another team's workload: counted, not named. */
        public static PriorityOnlyRow hidden() {
            return new PriorityOnlyRow(null, null, null, 0, null, null, null, List.of());
        }

        public boolean isHidden() {
            return namespace == null;
        }

        /** There is no quota in this mode: waiting means no pool is free and nobody may be preempted. */
        public String reasonText() {
            return reason == PendingReason.WaitingForNodePool ? "Waiting for a free node pool"
                    : PendingReasons.describe(reason);
        }
    }

    /** A workload holding quota in the queue, with what admission gave each podset. */
    record AdmittedRow(String namespace, String name, String localQueue, int priority, String state,
                       Instant admittedAt, List<PodSetPlacement> podSets) {

        /** Another team's workload: counted, not named. */
        public static AdmittedRow hidden() {
            return new AdmittedRow(null, null, null, 0, null, null, List.of());
        }

        public boolean isHidden() {
            return namespace == null;
        }
    }
}
