package dev.platform.api.manifest;

import dev.platform.api.identity.TeamRole;

import java.util.Comparator;
import java.util.List;

/**
 * A team ({@code apiVersion: platform.dev/v1}): the namespaces it owns (each namespace belongs to at
 * most one team) and its members with their roles. Cluster-scoped. Members are user names, as the
 * platform's users or an identity provider's tokens name them; a member need not exist yet. Both
 * lists are sets: kept sorted, so a team reads back, and compares, the same whatever order it was
 * written in.
 */
public record TeamManifest(String name, List<String> namespaces, List<Member> members) implements ConfigManifest {

    public TeamManifest {
        namespaces = namespaces.stream().sorted().toList();
        members = members.stream().sorted(BY_USER).toList();
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
