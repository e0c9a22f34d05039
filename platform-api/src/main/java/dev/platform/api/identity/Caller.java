package dev.platform.api.identity;

import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who makes a request and what they may do: a user with an optional cluster-wide role and their
 * team memberships, each with the team's namespaces. The REST API and the console ask it the same
 * questions, so both apply one policy:
 * <ul>
 *   <li>Admin: everything; Ops: reads everything and cancels any workload;</li>
 *   <li>a member of a team (Engineer or TeamLead): submits, cancels and reads workloads in the team's
 *       namespaces, and reads the LocalQueues there and the ClusterQueues they point to;</li>
 *   <li>a TeamLead also reads the team's preemption audit and usage history.</li>
 * </ul>
 */
public record Caller(String name, ClusterRole clusterRole, List<Membership> teams) {

    /** A role in one team, and the namespaces the team owns (sorted, so they read the same every time). */
    public record Membership(String team, TeamRole role, Set<String> namespaces) {
        public Membership {
            namespaces = Collections.unmodifiableSortedSet(new TreeSet<>(namespaces));
        }
    }

    public Caller {
        teams = List.copyOf(teams);
    }

    public boolean isAdmin() {
        return clusterRole == ClusterRole.Admin;
    }

    /** Ops and Admin see every namespace, queue, cluster and audit. */
    public boolean readsEverything() {
        return clusterRole != null;
    }

    public boolean mayRead(String namespace) {
        return readsEverything() || membershipFor(namespace).isPresent();
    }

    /** Submitting is for the team that owns the namespace (and Admin); Ops watches, it does not submit. */
    public boolean maySubmit(String namespace) {
        return isAdmin() || membershipFor(namespace).isPresent();
    }

    public boolean mayCancel(String namespace) {
        return readsEverything() || membershipFor(namespace).isPresent();
    }

    /** The preemption audit and usage history of a namespace belong to its team's leads. */
    public boolean leads(String namespace) {
        return readsEverything() || membershipFor(namespace).filter(m -> m.role() == TeamRole.TeamLead).isPresent();
    }

    /** Leads at least one team, or reads everything: may open the preemption audit and team pages. */
    public boolean leadsAnyTeam() {
        return readsEverything() || teams.stream().anyMatch(m -> m.role() == TeamRole.TeamLead);
    }

    public boolean isMemberOf(String team) {
        return teams.stream().anyMatch(m -> m.team().equals(team));
    }

    public boolean leadsTeam(String team) {
        return readsEverything() || teams.stream().anyMatch(m -> m.team().equals(team) && m.role() == TeamRole.TeamLead);
    }

    /**
     * The namespaces whose objects lists show this caller, or empty for every namespace (Ops and
     * Admin).
     */
    public Optional<Set<String>> visibleNamespaces() {
        return readsEverything() ? Optional.empty() : Optional.of(namespacesOf(teams));
    }

    /** The namespaces of the teams this caller leads, or empty for every namespace (Ops and Admin). */
    public Optional<Set<String>> ledNamespaces() {
        return readsEverything() ? Optional.empty()
                : Optional.of(namespacesOf(teams.stream().filter(m -> m.role() == TeamRole.TeamLead).toList()));
    }

    /** The names of this caller's teams, sorted. */
    public List<String> teamNames() {
        return teams.stream().map(Membership::team).sorted().toList();
    }

    private Optional<Membership> membershipFor(String namespace) {
        return teams.stream().filter(m -> m.namespaces().contains(namespace)).findFirst();
    }

    private static Set<String> namespacesOf(Collection<Membership> memberships) {
        Set<String> namespaces = new TreeSet<>();
        memberships.forEach(m -> namespaces.addAll(m.namespaces()));
        return namespaces;
    }
}
