package dev.platform.scheduler.core.model;

/** A ClusterQueue's {@code spec.admissionScope.admissionMode}: whether its LocalQueues' usage orders its workloads. */
public enum AdmissionMode {
    /** Pending workloads of LocalQueues with lower recent usage go first. */
    UsageBasedAdmissionFairSharing,
    /** Priority and queue time only (also when the ClusterQueue has no admissionScope). */
    NoAdmissionFairSharing
}
