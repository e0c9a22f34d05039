package dev.platform.api.agent;

/** Where a materialized workload (its JobSet) stands in the cluster. */
public enum WorkloadPhase {
    /** the JobSet exists and is not suspended, but no pod runs yet. */
    PENDING,
    RUNNING,
    SUSPENDED,
    SUCCEEDED,
    FAILED,
    /** the JobSet no longer exists. */
    DELETED
}
