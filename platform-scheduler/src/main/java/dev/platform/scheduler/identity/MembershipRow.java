package dev.platform.scheduler.identity;

import dev.platform.api.identity.TeamRole;

/** One row of a team query: a team, a member's role in it (when asked for), and one of its namespaces. */
public record MembershipRow(String team, TeamRole role, String namespace) {
}
