package dev.platform.api.agent;

/**
 * FULL replaces everything the scheduler knows about the cluster (pools and workloads absent
 * from it are gone); DELTA carries only what changed since the previous report.
 */
public enum ReportKind {
    FULL,
    DELTA
}
