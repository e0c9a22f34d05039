package dev.platform.scheduler.kubernetes.registry;

import dev.platform.api.identity.TeamRole;

import java.util.List;
import java.util.Map;

import static dev.platform.scheduler.kubernetes.registry.Schemas.array;
import static dev.platform.scheduler.kubernetes.registry.Schemas.bool;
import static dev.platform.scheduler.kubernetes.registry.Schemas.dateTime;
import static dev.platform.scheduler.kubernetes.registry.Schemas.fields;
import static dev.platform.scheduler.kubernetes.registry.Schemas.integer;
import static dev.platform.scheduler.kubernetes.registry.Schemas.kind;
import static dev.platform.scheduler.kubernetes.registry.Schemas.object;
import static dev.platform.scheduler.kubernetes.registry.Schemas.oneOf;
import static dev.platform.scheduler.kubernetes.registry.Schemas.string;
import static dev.platform.scheduler.kubernetes.registry.Schemas.strings;

/**
 * The schemas of the Kubernetes kinds the platform serves besides Kueue's and the workloads (PriorityClass,
 * Namespace, Event, the access reviews of {@code kubectl auth can-i}) and of its own Team.
 */
public final class CoreSchemas {

    private CoreSchemas() {
    }

    public static Map<String, Object> priorityClass() {
        return kind("PriorityClass defines mapping from a priority class name to the priority integer value: the"
                + " priority of the pods, and of the workloads, that name it.", fields(
                "value", integer("The priority of the class: the higher, the more important. Up to 1000000000;"
                        + " higher values are kept for Kubernetes' system classes."),
                "globalDefault", bool("Whether this class is the default of pods that name none. The platform"
                        + " records it and warns that it does not act on it: a workload without a class gets"
                        + " priority 0."),
                "description", string("When this class should be used, in words."),
                "preemptionPolicy", oneOf("Whether pods of this class may preempt pods of lower priority:"
                        + " PreemptLowerPriority (the default) or Never.", List.of("PreemptLowerPriority", "Never"))));
    }

    public static Map<String, Object> namespace() {
        return kind("Namespace provides a scope for Names. On the platform a namespace carries the labels that"
                + " ClusterQueues' namespace selectors and teams read.", fields(
                "spec", object("NamespaceSpec describes the attributes on a Namespace.", fields(
                        "finalizers", strings("Run by a cluster when it deletes the namespace; the platform"
                                + " ignores the spec and warns."))),
                "status", object("NamespaceStatus is information about the current status of a Namespace.", fields(
                        "phase", oneOf("Active, or Terminating while it is deleted.", List.of("Active",
                                "Terminating"))))));
    }

    public static Map<String, Object> team() {
        return kind("Team is the platform's own: the namespaces a team owns and its members with their roles. An"
                + " Engineer submits and reads workloads in the team's namespaces; a TeamLead also sees its quota,"
                + " usage and preemption history.", fields(
                "spec", object("The team's namespaces, members and allowed priority classes.", fields(
                        "namespaces", strings("The namespaces the team owns; a namespace belongs to one team at"
                                + " most."),
                        "members", array("The team's members, each once, with one role.", object("A member of"
                                + " the team.", fields(
                                "user", string("The user name, as the identity provider gives it."),
                                "role", oneOf("Engineer or TeamLead.", TeamRole.class)),
                                "user", "role")),
                        "allowedPriorityClasses", strings("The priority classes the team's workloads may name;"
                                + " unset: any.")))));
    }

    public static Map<String, Object> event() {
        return kind("Event is a report of an event somewhere in the cluster. The platform reports each workload's"
                + " timeline (queued, admitted, preempted, finished...) as Events on its JobSet or Job and on its"
                + " Workload.", fields(
                "involvedObject", object("The object this event is about.", fields(
                        "apiVersion", string("The API version of the object."),
                        "kind", string("The kind of the object."),
                        "namespace", string("The namespace of the object."),
                        "name", string("The name of the object."),
                        "uid", string("The UID of the object."),
                        "resourceVersion", string("The version of the object the event is about."),
                        "fieldPath", string("The part of the object the event is about, if not all of it."))),
                "reason", string("Why the action was taken, short and machine-readable (Admitted, Preempted...)."),
                "message", string("A human-readable description of the event."),
                "source", object("The component reporting the event.", fields(
                        "component", string("The reporting component."),
                        "host", string("The node it runs on, if any."))),
                "firstTimestamp", dateTime("When the event was first recorded."),
                "lastTimestamp", dateTime("When the event was last recorded."),
                "eventTime", dateTime("When the event was first observed, with microseconds."),
                "count", integer("How many times the event occurred."),
                "type", oneOf("Normal or Warning.", List.of("Normal", "Warning")),
                "action", string("What action was taken or failed."),
                "reportingComponent", string("The controller that emitted the event."),
                "reportingInstance", string("The instance of that controller.")));
    }

    public static Map<String, Object> selfSubjectAccessReview() {
        return kind("SelfSubjectAccessReview checks whether the current user can perform an action: what"
                + " kubectl auth can-i asks. Answered by the rules that authorize every request.", fields(
                "spec", object("What is asked: one of resourceAttributes and nonResourceAttributes.", fields(
                        "resourceAttributes", object("An action on a resource.", fields(
                                "namespace", string("The namespace of the action; empty: every namespace."),
                                "verb", string("The verb: get, list, watch, create, update, patch, delete."),
                                "group", string("The API group of the resource."),
                                "version", string("The API version of the resource."),
                                "resource", string("The resource, by its plural name."),
                                "subresource", string("The subresource, if any."),
                                "name", string("The name of the object; empty: any."))),
                        "nonResourceAttributes", object("An action on a path that is not a resource.", fields(
                                "path", string("The URL path."),
                                "verb", string("The HTTP verb, in lower case."))))),
                "status", object("The answer.", fields(
                        "allowed", bool("Whether the action is allowed."),
                        "denied", bool("Whether the action is denied outright."),
                        "reason", string("Why, in words."),
                        "evaluationError", string("What went wrong while answering, if anything.")),
                        "allowed")));
    }

    public static Map<String, Object> selfSubjectRulesReview() {
        return kind("SelfSubjectRulesReview lists the actions the current user can perform in a namespace.",
                fields(
                        "spec", object("What is asked.", fields(
                                "namespace", string("The namespace to list the actions in."))),
                        "status", object("The answer.", fields(
                                "resourceRules", array("The actions allowed on resources.", object("Verbs"
                                        + " allowed on resources.", fields(
                                        "verbs", strings("The verbs allowed."),
                                        "apiGroups", strings("The API groups of the resources."),
                                        "resources", strings("The resources, by plural name."),
                                        "resourceNames", strings("The object names; empty: any.")),
                                        "verbs")),
                                "nonResourceRules", array("The actions allowed on other paths.", object("Verbs"
                                        + " allowed on paths.", fields(
                                        "verbs", strings("The verbs allowed."),
                                        "nonResourceURLs", strings("The paths, * as a suffix matching any.")),
                                        "verbs")),
                                "incomplete", bool("Whether the list may miss some rules."),
                                "evaluationError", string("What went wrong while answering, if anything.")),
                                "resourceRules", "nonResourceRules", "incomplete")));
    }
}
