package dev.platform.scheduler.core.model;

import java.util.List;

/** Where a workload was admitted: its ClusterQueue and the assignment of every pod set. */
public record Admission(String clusterQueue, List<PodSetAssignment> podSetAssignments) {

    public Admission {
        podSetAssignments = List.copyOf(podSetAssignments);
    }
}
