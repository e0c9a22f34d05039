package dev.platform.api.identity;

/** A role over the whole platform, set on the user rather than through a team. */
public enum ClusterRole {
    /** Reads everything (audits, hotswaps, node pools, clusters) and cancels any workload. */
    Ops,
    /** Everything, including configuration, teams, users and tokens. */
    Admin
}
