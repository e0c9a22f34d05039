package dev.platform.scheduler.identity;

import dev.platform.api.manifest.TeamManifest;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Team objects (the {@code platform.dev/v1} kind) as JPA entities, for the configuration service,
 * which applies, audits and deletes them like the Kueue kinds, in its transaction.
 */
@Component
public class TeamStore {

    private final TeamRepository teams;
    private final AuthenticatedTokens authenticated;
    private final Clock clock;

    TeamStore(TeamRepository teams, AuthenticatedTokens authenticated, Clock clock) {
        this.teams = teams;
        this.authenticated = authenticated;
        this.clock = clock;
    }

    public Map<String, TeamManifest> find(Collection<String> names) {
        return teams.findAllByNameIn(names).stream().collect(Collectors.toMap(Team::name, Team::toManifest));
    }

    public Optional<TeamManifest> find(String name) {
        return teams.findAllByNameIn(List.of(name)).stream().findFirst().map(Team::toManifest);
    }

    public List<TeamManifest> list() {
        return teams.findAllOrdered().stream().map(Team::toManifest).toList();
    }

    public void insert(TeamManifest manifest) {
        Team team = new Team(manifest.name(), clock.instant());
        team.apply(manifest, clock.instant());
        teams.saveAndFlush(team);
        authenticated.forgetAfterCommit();
    }

    public void update(TeamManifest manifest) {
        Team team = teams.findById(manifest.name()).orElseThrow();
        team.apply(manifest, clock.instant());
        teams.flush();
        authenticated.forgetAfterCommit();
    }

    /** @return the team as it was, or empty when there was none */
    public Optional<TeamManifest> delete(String name) {
        Optional<Team> team = teams.findById(name);
        Optional<TeamManifest> before = team.map(Team::toManifest);
        team.ifPresent(t -> {
            teams.delete(t);
            teams.flush();
            authenticated.forgetAfterCommit();
        });
        return before;
    }

    /**
     * A namespace belongs to at most one team: for teams about to be applied, the namespaces one of them
     * claims that another team owns (after this request), as messages naming both.
     */
    public List<String> ownershipConflicts(List<TeamManifest> applying) {
        Map<String, String> claimedBy = new HashMap<>();
        List<String> conflicts = new ArrayList<>();
        for (TeamManifest team : applying) {
            for (String namespace : team.namespaces()) {
                String other = claimedBy.putIfAbsent(namespace, team.name());
                if (other != null && !other.equals(team.name())) {
                    conflicts.add("namespace " + namespace + " is claimed by teams " + other + " and " + team.name());
                }
            }
        }
        if (claimedBy.isEmpty()) {
            return conflicts;
        }
        Set<String> applyingNames = applying.stream().map(TeamManifest::name).collect(Collectors.toSet());
        for (MembershipRow owner : teams.ownersOf(claimedBy.keySet())) {
            String claimant = claimedBy.get(owner.namespace());
            // A team being applied in the same request gives up what its new manifest leaves out.
            if (!owner.team().equals(claimant) && !applyingNames.contains(owner.team())) {
                conflicts.add("namespace " + owner.namespace() + " belongs to team " + owner.team()
                        + "; remove it there first");
            }
        }
        return conflicts;
    }
}
