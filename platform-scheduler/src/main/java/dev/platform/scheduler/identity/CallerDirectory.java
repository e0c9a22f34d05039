package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Who a user is right now: their cluster role and their teams, read afresh for every request, so
 * a membership removed or a user deleted takes effect on the next request.
 */
@Component
public class CallerDirectory {

    private final UserAccountRepository users;
    private final TeamRepository teams;

    CallerDirectory(UserAccountRepository users, TeamRepository teams) {
        this.users = users;
        this.teams = teams;
    }

    /** A user of the platform's own (password or API token); empty when the user no longer exists. */
    @Transactional(readOnly = true)
    public Optional<Caller> localUser(String name) {
        return users.findById(name).map(user -> caller(user.name(), user.clusterRole(),
                teams.membershipsOf(List.of(name))));
    }

    /** A user of the platform's own with their cluster role and their rows of (team, role, namespace). */
    static Caller caller(String name, ClusterRole clusterRole, List<MembershipRow> memberships) {
        return new Caller(name, clusterRole, memberships(memberships, Map.of()));
    }

    /**
     * A user an identity provider vouches for: the roles its groups grant, joined with what the
     * platform itself knows of that name (a cluster role, Team memberships); the stronger role wins.
     */
    @Transactional(readOnly = true)
    public Caller federatedUser(String name, ClusterRole groupRole, Map<String, TeamRole> groupTeams) {
        ClusterRole localRole = users.findById(name).map(UserAccount::clusterRole).orElse(null);
        List<MembershipRow> rows = new ArrayList<>(teams.membershipsOf(List.of(name)));
        if (!groupTeams.isEmpty()) {
            rows.addAll(teams.namespacesOf(groupTeams.keySet()));
        }
        return new Caller(name, stronger(localRole, groupRole), memberships(rows, groupTeams));
    }

    /** Rows of (team, role, namespace) folded into one membership per team with its strongest role. */
    private static List<Caller.Membership> memberships(List<MembershipRow> rows, Map<String, TeamRole> groupTeams) {
        Map<String, TeamRole> roles = new TreeMap<>(groupTeams);
        Map<String, Set<String>> namespaces = new TreeMap<>();
        for (MembershipRow row : rows) {
            if (row.role() != null) {
                roles.merge(row.team(), row.role(), CallerDirectory::stronger);
            }
            Set<String> teamNamespaces = namespaces.computeIfAbsent(row.team(), t -> new HashSet<>());
            if (row.namespace() != null) {
                teamNamespaces.add(row.namespace());
            }
        }
        List<Caller.Membership> memberships = new ArrayList<>();
        // A group naming a team that does not exist grants nothing: the team has no namespaces to act in.
        namespaces.forEach((team, owned) -> memberships.add(new Caller.Membership(team, roles.get(team), owned)));
        return memberships;
    }

    private static TeamRole stronger(TeamRole a, TeamRole b) {
        return a == TeamRole.TeamLead || b == TeamRole.TeamLead ? TeamRole.TeamLead : TeamRole.Engineer;
    }

    private static ClusterRole stronger(ClusterRole a, ClusterRole b) {
        if (a == ClusterRole.Admin || b == ClusterRole.Admin) {
            return ClusterRole.Admin;
        }
        return a != null ? a : b;
    }
}
