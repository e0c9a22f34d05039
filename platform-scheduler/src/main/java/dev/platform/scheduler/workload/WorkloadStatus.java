package dev.platform.scheduler.workload;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The workload status resource of the REST contract (design §8); field names are fixed. */
public record WorkloadStatus(
        String namespace,
        String name,
        String kind,
        String uid,
        String queueName,
        String clusterQueue,
        String priorityClassName,
        int priority,
        WorkloadState state,
        List<PodSet> podSets,
        Admission admission,
        List<Condition> conditions,
        Integer positionInClusterQueue,
        Integer positionInLocalQueue,
        PendingReason pendingReason,
        Instant createdAt,
        Instant admittedAt) {

    /** requests are per pod, as Kubernetes quantities. */
    public record PodSet(String name, int count, Map<String, String> requests) {
    }

    public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {
    }

    /** flavors: resource to flavor; resourceUsage: resource to total quantity for the podset. */
    public record PodSetAssignment(String name, int count, Map<String, String> flavors,
                                   Map<String, String> resourceUsage, List<String> nodePools) {
        public PodSetAssignment {
            nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
        }
    }

    public record Condition(String type, String status, String reason, String message, Instant lastTransitionTime) {
    }

    public record PendingReason(String code, String message) {
    }
}
