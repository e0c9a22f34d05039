package dev.platform.scheduler.kubernetes.registry;

import dev.platform.api.identity.Caller;

import java.util.Optional;

/**
 * Who may do what to a kind: the platform's roles and teams, the same matrix as its REST API. Answers why a caller is
 * refused, in words that name who may do it; empty when the caller may.
 */
@FunctionalInterface
public interface Access {

    /**
     * @param namespace the namespace the request names; null for a cluster-scoped kind or a list across namespaces
     */
    Optional<String> refusal(Caller caller, Verb verb, String namespace);

    /** Everyone signed in reads; only an Admin writes: the configuration kinds. */
    static Access configuration() {
        return (caller, verb, namespace) -> isRead(verb) || caller.isAdmin() ? Optional.empty()
                : Optional.of("configuration is changed by an Admin only (a user's roles are set in the platform's"
                + " users, a team's in its Team object)");
    }

    /** Objects in a team's namespaces: read by its members, Ops and Admins; written by whom the verb needs. */
    static Access namespaced() {
        return (caller, verb, namespace) -> {
            if (namespace == null) {
                return Optional.empty();
            }
            boolean allowed = switch (verb) {
                case get, list, watch -> caller.mayRead(namespace);
                case create, update, patch -> caller.maySubmit(namespace);
                case delete, deletecollection -> caller.mayCancel(namespace);
            };
            return allowed ? Optional.empty() : Optional.of("namespace \"" + namespace + "\" belongs to none of your"
                    + " teams with a role that may " + verb + " there (Engineers and TeamLeads of the owning team submit,"
                    + " Ops cancel, Admins do everything)");
        };
    }

    /** LocalQueues: read by those who read their namespace, changed by an Admin, as the configuration they are. */
    static Access localQueues() {
        Access namespaced = namespaced();
        Access configuration = configuration();
        return (caller, verb, namespace) -> isRead(verb) ? namespaced.refusal(caller, verb, namespace)
                : configuration.refusal(caller, verb, namespace);
    }

    /** Only read, by those who read the namespace: Events, derived Workloads. */
    static Access readOnlyNamespaced() {
        Access namespaced = namespaced();
        return (caller, verb, namespace) -> isRead(verb) ? namespaced.refusal(caller, verb, namespace)
                : Optional.of("this resource is derived by the platform and is not written through the API");
    }

    /** Anyone signed in may create it: the access reviews that ask what the caller may do. */
    static Access anyCaller() {
        return (caller, verb, namespace) -> Optional.empty();
    }

    static boolean isRead(Verb verb) {
        return verb == Verb.get || verb == Verb.list || verb == Verb.watch;
    }
}
