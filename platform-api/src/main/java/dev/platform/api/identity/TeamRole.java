package dev.platform.api.identity;

/** A user's role in one team; a user may hold a role in several teams. */
public enum TeamRole {
    /** Submits, cancels and reads workloads and queues in the team's namespaces. */
    Engineer,
    /** An Engineer who also sees the team's quota, usage history and preemption audit. */
    TeamLead
}
