package dev.platform.scheduler.security;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;
import dev.platform.api.identity.TeamRole;
import dev.platform.api.identity.UserNames;
import dev.platform.scheduler.identity.CallerDirectory;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the claims of an identity provider's token (a bearer JWT, or the ID token of a console
 * login) into a caller: the user name from the configured claim, and roles from the groups claim
 * through {@code platform.security.oidc.groups.<group>}, joined with what the platform knows of
 * that user.
 */
@Component
class IdentityProviderClaims {

    /** What one group grants: a cluster role, or a role in a team. */
    private record Grant(ClusterRole clusterRole, String team, TeamRole teamRole) {
    }

    private final SecuritySettings.Oidc settings;
    private final Map<String, Grant> grants;
    private final CallerDirectory directory;

    IdentityProviderClaims(SecuritySettings settings, CallerDirectory directory) {
        this.settings = settings.oidc();
        this.directory = directory;
        this.grants = new HashMap<>();
        this.settings.groups().forEach((group, value) -> grants.put(group, grant(group, value)));
    }

    /** @return empty when the claims carry no usable user name */
    Optional<Caller> caller(Map<String, Object> claims) {
        Object named = claims.get(settings.userNameClaim());
        String name = named instanceof String s && !s.isBlank() ? s : (String) claims.get("sub");
        if (name == null || UserNames.problem(name).isPresent()) {
            return Optional.empty();
        }
        ClusterRole clusterRole = null;
        Map<String, TeamRole> teams = new HashMap<>();
        if (claims.get(settings.groupsClaim()) instanceof Collection<?> groups) {
            for (Object group : groups) {
                Grant grant = grants.get(String.valueOf(group));
                if (grant == null) {
                    continue;
                }
                if (grant.clusterRole() != null) {
                    clusterRole = clusterRole == ClusterRole.Admin ? clusterRole : grant.clusterRole();
                } else {
                    teams.merge(grant.team(), grant.teamRole(),
                            (a, b) -> a == TeamRole.TeamLead ? a : b);
                }
            }
        }
        return Optional.of(directory.federatedUser(name, clusterRole, teams));
    }

    private static Grant grant(String group, String value) {
        String text = value.strip();
        if (text.equals("Admin") || text.equals("Ops")) {
            return new Grant(ClusterRole.valueOf(text), null, null);
        }
        int colon = text.lastIndexOf(':');
        if (colon > 0) {
            String role = text.substring(colon + 1);
            if (role.equals("TeamLead") || role.equals("Engineer")) {
                return new Grant(null, text.substring(0, colon), TeamRole.valueOf(role));
            }
        }
        throw new IllegalStateException("platform.security.oidc.groups." + group + "=" + value
                + ": expected Admin, Ops, <team>:TeamLead or <team>:Engineer");
    }
}
