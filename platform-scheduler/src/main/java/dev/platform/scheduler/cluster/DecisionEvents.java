package dev.platform.scheduler.cluster;

import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.workload.WorkloadOrigins.ClusterEntry;
import dev.platform.scheduler.workload.WorkloadState;
import dev.platform.scheduler.workload.WorkloadStatus;

import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How a timeline entry reads as a Kubernetes Event on the workload's JobSet in its cluster, as Kueue's events read on
 * its Workload objects: the reason, Normal or Warning, and a message that answers "why is my job not running"
 * (queued: its ClusterQueue, its place there, why it waits, when it should start; admitted: flavors and node pools;
 * preempted: by whom, why, the work lost). Entries that repeat another one (the conditions an eviction turns False) make none.
 */
final class DecisionEvents {

    static final String NORMAL = "Normal";
    static final String WARNING = "Warning";

    /** An Event's type, reason and message. */
    record Wording(String type, String reason, String message) {
    }

    private DecisionEvents() {
    }

    /**
     * @param current    the workload's status now (null when it is gone): the place in its queue, its admission
     * @param preemption the audit record of the preemption a Preempted entry tells of (null when none is found)
     */
    static Optional<Wording> of(ClusterEntry entry, WorkloadStatus current, PreemptionEvent preemption) {
        boolean set = "True".equals(entry.status());
        return switch (entry.type()) {
            case "QuotaReserved" -> set ? Optional.of(new Wording(NORMAL, "QuotaReserved", entry.message()))
                    : evictedEcho(entry) ? Optional.empty()
                    : Optional.of(new Wording(NORMAL, "Pending", pending(entry, current)));
            case "Admitted" -> set ? Optional.of(new Wording(NORMAL, "Admitted", admitted(entry, current)))
                    : Optional.empty();
            // False: the quota reserved again after it (Kueue's reset), which the QuotaReserved entry tells
            case "Preempted" -> set ? Optional.of(new Wording(WARNING, "Preempted", preempted(entry, preemption)))
                    : Optional.empty();
            case "Evicted" -> set ? Optional.of(new Wording(WARNING, "Evicted", entry.reason() + ": " + entry.message()))
                    : Optional.empty();
            case "Requeued" -> Optional.of(new Wording(NORMAL, "Requeued", entry.message()));
            case "Hotswap" -> Optional.of(new Wording(WARNING, "Hotswapped", entry.message()));
            case "DeactivationTarget" -> Optional.of(new Wording(WARNING, "Deactivated", entry.message()));
            case "Finished" -> Optional.of(new Wording(NORMAL, "Finished", entry.reason() + ": " + entry.message()));
            default -> Optional.empty();
        };
    }

    /** An eviction turns QuotaReserved False too; the Evicted entry beside it says it. */
    private static boolean evictedEcho(ClusterEntry entry) {
        return "The workload was evicted".equals(entry.message());
    }

    /**
     * Kueue's message (the preemptor's uid, why), the preemptor by name when it is of the same namespace (the
     * namespace's readers see the Event; another team's workload stays unnamed, as in the audit), and the lost work.
     */
    private static String preempted(ClusterEntry entry, PreemptionEvent preemption) {
        if (preemption == null) {
            return entry.message();
        }
        PreemptionEvent.Party by = preemption.preemptor();
        String message = entry.message() + "; preempted by " + (entry.namespace().equals(by.namespace())
                ? by.name() + " (priority " + by.priority() + ", ClusterQueue " + by.clusterQueue() + ")"
                : "a workload of another namespace (priority " + by.priority() + ")");
        return preemption.lostWork() == null ? message : message + "; lost work " + preemption.lostWork().describe();
    }

    private static String pending(ClusterEntry entry, WorkloadStatus current) {
        StringBuilder message = new StringBuilder(entry.message()).append(" (").append(entry.reason()).append(")");
        if (current != null && current.state() == WorkloadState.Pending) {
            message.append("; ClusterQueue ").append(current.clusterQueue());
            if (current.positionInClusterQueue() != null) {
                message.append(", position ").append(current.positionInClusterQueue()).append(" in it");
            }
            if (current.forecast() != null && current.forecast().estimatedAdmissionAt() != null) {
                message.append(", expected to start at ").append(current.forecast().estimatedAdmissionAt());
            }
        }
        return message.toString();
    }

    private static String admitted(ClusterEntry entry, WorkloadStatus current) {
        if (current == null || current.admission() == null) {
            return entry.message();
        }
        return "Admitted by ClusterQueue " + current.admission().clusterQueue() + ": "
                + current.admission().podSetAssignments().stream()
                .map(a -> a.name() + " (" + a.count() + " pod(s)) on flavor "
                        + a.flavors().entrySet().stream().map(f -> f.getKey() + "=" + f.getValue())
                        .collect(Collectors.joining(", "))
                        + (a.nodePools().isEmpty() ? "" : ", node pools " + String.join(", ", a.nodePools())))
                .collect(Collectors.joining("; "));
    }
}
