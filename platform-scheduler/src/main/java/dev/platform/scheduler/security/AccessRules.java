package dev.platform.scheduler.security;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.config.ConfigStore;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * The questions the request rules ask of a caller, as authorization managers over the request's
 * path variables. A request without a resolvable caller (anonymous, or an agent token) is denied:
 * anonymous ones get 401 from the entry point, others 403.
 */
@Component
class AccessRules {

    private static final Logger log = LoggerFactory.getLogger(AccessRules.class);

    private final CallerResolver callers;
    private final ConfigStore config;

    AccessRules(CallerResolver callers, ConfigStore config) {
        this.callers = callers;
        this.config = config;
    }

    /** The request attribute holding why a rule refused a signed-in caller: who may, and how to become one. */
    static final String REQUIREMENT_ATTRIBUTE = "platform.refusal.requirement";

    /** Any authenticated user; what they see is filtered where the data is read. */
    AuthorizationManager<RequestAuthorizationContext> anyCaller() {
        return when(caller -> true);
    }

    AuthorizationManager<RequestAuthorizationContext> when(Predicate<Caller> rule) {
        return (authentication, context) -> new AuthorizationDecision(callers.resolve(authentication.get())
                .map(rule::test).orElse(false));
    }

    /**
     * A rule whose refusal of a signed-in caller says who may and how to become one (request attribute
     * {@value #REQUIREMENT_ATTRIBUTE}, the text of the 403).
     */
    private AuthorizationManager<RequestAuthorizationContext> requiring(AccessRequirement requirement,
                                                                        BiPredicate<Caller, Map<String, String>> rule) {
        return (authentication, context) -> {
            Optional<Caller> caller = callers.resolve(authentication.get());
            boolean granted = caller.map(c -> rule.test(c, context.getVariables())).orElse(false);
            if (!granted && caller.isPresent()) {
                HttpServletRequest request = context.getRequest();
                request.setAttribute(REQUIREMENT_ATTRIBUTE, requirement.explain(request.getMethod(),
                        request.getRequestURI(), caller.get(), context.getVariables().get("namespace")));
            }
            return new AuthorizationDecision(granted);
        };
    }

    AuthorizationManager<RequestAuthorizationContext> admin() {
        return requiring(AccessRequirement.ADMIN, (caller, variables) -> caller.isAdmin());
    }

    /** Ops and Admins, who read everything. */
    AuthorizationManager<RequestAuthorizationContext> opsOrAdmin() {
        return requiring(AccessRequirement.OPS_OR_ADMIN, (caller, variables) -> caller.readsEverything());
    }

    /** A TeamLead of any team (the answer is filtered to the teams led), Ops and Admins. */
    AuthorizationManager<RequestAuthorizationContext> teamLead() {
        return requiring(AccessRequirement.TEAM_LEAD, (caller, variables) -> caller.leadsAnyTeam());
    }

    /** The caller reads in the namespace named by path variable {@code namespace}. */
    AuthorizationManager<RequestAuthorizationContext> readsNamespace() {
        return requiring(AccessRequirement.READS_NAMESPACE, (caller, variables) -> caller.mayRead(variables.get("namespace")));
    }

    AuthorizationManager<RequestAuthorizationContext> submitsInNamespace() {
        return requiring(AccessRequirement.SUBMITS_IN_NAMESPACE,
                (caller, variables) -> caller.maySubmit(variables.get("namespace")));
    }

    AuthorizationManager<RequestAuthorizationContext> cancelsInNamespace() {
        return requiring(AccessRequirement.CANCELS_IN_NAMESPACE,
                (caller, variables) -> caller.mayCancel(variables.get("namespace")));
    }

    /** The ClusterQueue named by path variable {@code clusterQueue} is one a LocalQueue of the caller's teams points to. */
    AuthorizationManager<RequestAuthorizationContext> seesClusterQueue() {
        return requiring(AccessRequirement.SEES_CLUSTER_QUEUE, (caller, variables) -> config.clusterQueuesVisibleTo(caller)
                .map(names -> names.contains(variables.get("clusterQueue"))).orElse(true));
    }

    AuthorizationManager<RequestAuthorizationContext> memberOfTeam() {
        return requiring(AccessRequirement.MEMBER_OF_TEAM,
                (caller, variables) -> caller.readsEverything() || caller.isMemberOf(variables.get("team")));
    }

    /**
     * The agent token presented is the one of the cluster named by path variable {@code cluster}; a
     * token of another cluster is refused and logged, as a misconfigured or stolen token should be.
     */
    AuthorizationManager<RequestAuthorizationContext> agentOfCluster() {
        return (authentication, context) -> {
            String cluster = context.getVariables().get("cluster");
            if (authentication.get() instanceof AgentAuthentication agent) {
                boolean own = agent.cluster().equals(cluster);
                if (!own) {
                    log.warn("refused an agent call for cluster {} made with the agent token of cluster {}: {} {}",
                            cluster, agent.cluster(), context.getRequest().getMethod(), context.getRequest().getRequestURI());
                }
                return new AuthorizationDecision(own);
            }
            return new AuthorizationDecision(false);
        };
    }

    /** Paths open to everyone: health, the login page, static assets and the error pages. */
    static final List<String> PUBLIC = List.of("/actuator/health", "/actuator/health/**", "/login", "/css/**",
            "/webjars/**", "/favicon.ico", "/error", "/forbidden", "/not-found");
}
