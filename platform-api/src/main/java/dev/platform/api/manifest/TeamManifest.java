package dev.platform.api.manifest;

import dev.platform.api.identity.TeamRole;

import java.util.Comparator;
import java.util.List;

/**
 * A team ({@code apiVersion: platform.dev/v1}): the namespaces it owns (each namespace belongs to at
 * most one team), its members with their roles, and optionally the priority classes its workloads may
 * name. Cluster-scoped. Members are user names, as the platform's users or an identity provider's tokens
 * name them; a member need not exist yet. The lists are sets: kept sorted, so a team reads back, and
 * compares, the same whatever order it was written in.
 *
 * @param allowedPriorityClasses the PriorityClass and WorkloadPriorityClass names the team's workloads may
 *                               name, as a ResourceQuota scoped on priority classes allows; null when any may
 *                               be named, empty when none may
 */
public record TeamManifest(String name, List<String> namespaces, List<Member> members,
                           List<String> allowedPriorityClasses) implements ConfigManifest {

    public TeamManifest {
        namespaces = namespaces.stream().sorted().toList();
        members = members.stream().sorted(BY_USER).toList();
        allowedPriorityClasses = allowedPriorityClasses == null ? null
                : allowedPriorityClasses.stream().sorted().toList();
    }

    /** A team whose workloads may name any priority class. */
    public TeamManifest(String name, List<String> namespaces, List<Member> members) {
        this(name, namespaces, members, null);
    }

    public record Member(String user, TeamRole role) {
    }

    private static final Comparator<Member> BY_USER = Comparator.comparing(Member::user,
            Comparator.nullsFirst(Comparator.naturalOrder()));

    @Override
    public Kind kind() {
        return Kind.TEAM;
    }
}
