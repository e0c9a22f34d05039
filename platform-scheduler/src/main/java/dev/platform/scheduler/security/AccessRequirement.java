package dev.platform.scheduler.security;

import dev.platform.api.identity.Caller;
import dev.platform.api.identity.ClusterRole;

import java.util.stream.Collectors;

/**
 * What a request rule asks of a caller, in words: a refusal says who may make the request and how a user becomes
 * one, so the reader knows whom to ask instead of only that their roles fall short.
 */
enum AccessRequirement {

    ADMIN("an Admin", ClusterRole.Admin.howToBecome()),
    OPS_OR_ADMIN("Ops and Admins", ClusterRole.Ops.howToBecome()),
    TEAM_LEAD("TeamLeads of a team, Ops and Admins", "An Admin makes a user TeamLead of a team in the Team's"
            + " members (role TeamLead), or gives them the Ops role."),
    SUBMITS_IN_NAMESPACE("the members (Engineers and TeamLeads) of the team that owns namespace %s, and Admins",
            "An Admin adds a user to that Team's members; or submit in a namespace of one of your teams."),
    CANCELS_IN_NAMESPACE("the members (Engineers and TeamLeads) of the team that owns namespace %s, Ops and Admins",
            "An Admin adds a user to that Team's members."),
    READS_NAMESPACE("the members of the team that owns namespace %s, Ops and Admins",
            "An Admin adds a user to that Team's members."),
    SEES_CLUSTER_QUEUE("the members of a team with a LocalQueue pointing to this ClusterQueue, Ops and Admins",
            "An Admin adds a user to such a Team's members."),
    MEMBER_OF_TEAM("the team's members, Ops and Admins", "An Admin adds a user to the Team's members.");

    private final String who;
    private final String how;

    AccessRequirement(String who, String how) {
        this.who = who;
        this.how = how;
    }

    /**
     * @param namespace the request's namespace, for the requirements about one; null otherwise
     * @return "METHOD path is for ...; you are ... How to become one." for the 403's detail
     */
    String explain(String method, String path, Caller caller, String namespace) {
        return method + " " + path + " is for " + who.formatted(namespace) + "; " + describe(caller) + ". " + how;
    }

    /** The caller as the rules see them: cluster role and teams with their roles and namespaces. */
    static String describe(Caller caller) {
        String role = caller.clusterRole() == null ? "have no cluster role" : "are " + caller.clusterRole();
        String teams = caller.teams().isEmpty() ? "in no team"
                : caller.teams().stream().map(m -> m.role() + " of team " + m.team() + " (namespaces "
                        + String.join(", ", m.namespaces()) + ")").collect(Collectors.joining(", "));
        return "you (" + caller.name() + ") " + role + " and are " + teams;
    }
}
