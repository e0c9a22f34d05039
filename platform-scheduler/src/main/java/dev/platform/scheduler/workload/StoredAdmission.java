package dev.platform.scheduler.workload;

import java.util.List;
import java.util.Map;

/**
 * A workload's admission as the {@code workload.admission} jsonb column holds it and the scheduler reads it back:
 * its ClusterQueue and, per PodSet, the flavor of each resource, the quota it uses and the node pools it runs on.
 * Kept apart from the REST {@link WorkloadStatus.Admission} so that either can change without the other; the field
 * names are those of the stored documents.
 */
public record StoredAdmission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {

    public StoredAdmission {
        podSetAssignments = List.copyOf(podSetAssignments);
    }

    /** flavors: resource to flavor; resourceUsage: resource to total quantity for the PodSet; nodePools: pool names. */
    public record PodSetAssignment(String name, int count, Map<String, String> flavors,
                                   Map<String, String> resourceUsage, List<String> nodePools) {
        public PodSetAssignment {
            nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
        }
    }

    /** The same admission (quota and flavors kept) on other node pools: pool names per PodSet name. */
    public StoredAdmission onPools(Map<String, List<String>> poolsByPodSet) {
        return new StoredAdmission(clusterQueue, podSetAssignments.stream().map(a -> new PodSetAssignment(a.name(),
                a.count(), a.flavors(), a.resourceUsage(), poolsByPodSet.getOrDefault(a.name(), List.of()))).toList());
    }

    /** As the REST API shows it. */
    public WorkloadStatus.Admission toStatus() {
        return new WorkloadStatus.Admission(clusterQueue, podSetAssignments.stream()
                .map(a -> new WorkloadStatus.PodSetAssignment(a.name(), a.count(), a.flavors(), a.resourceUsage(),
                        a.nodePools()))
                .toList());
    }
}
