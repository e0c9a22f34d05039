package dev.platform.agent.cluster;

import java.util.List;
import java.util.Set;

/**
 * The Kubernetes API access the agent's code needs, as RBAC rules: what the chart grants
 * ({@code helm/platform-agent/templates/rbac.yaml}) and nothing more. Two tests hold it true: the
 * agent's own requests against a mock API server map onto exactly these rules, and the chart's
 * rendered ClusterRole and Role equal them.
 */
public final class ApiPermissions {

    /** One RBAC rule: an API group ("" for core), a resource (with its subresource), verbs. */
    public record Rule(String apiGroup, String resource, Set<String> verbs) {
        public Rule {
            verbs = Set.copyOf(verbs);
        }
    }

    /**
     * Cluster-wide (a ClusterRole): the node and pod informers list and watch; evictions go through
     * the eviction subresource so PodDisruptionBudgets hold; JobSets and batch Jobs are read, watched, created,
     * merge-patched (pin, suspend, resume) and deleted, never updated; ProvisioningRequests are listed, created and
     * deleted, their PodTemplates created, merge-patched (owned by their request) and deleted.
     */
    public static final List<Rule> CLUSTER = List.of(
            new Rule("", "nodes", Set.of("list", "watch")),
            new Rule("", "pods", Set.of("list", "watch")),
            new Rule("", "pods/eviction", Set.of("create")),
            new Rule(JobKind.JOBSET.group(), JobKind.JOBSET.resource(), Set.of("get", "list", "watch", "create", "patch", "delete")),
            new Rule(JobKind.JOB.group(), JobKind.JOB.resource(), Set.of("get", "list", "watch", "create", "patch", "delete")),
            new Rule(KubernetesCluster.PROVISIONING_GROUP, "provisioningrequests", Set.of("list", "create", "delete")),
            new Rule("", "podtemplates", Set.of("create", "patch", "delete")));

    /**
     * Cluster-wide, in the same ClusterRole: the platform's decisions written as core v1 Events on the JobSets, a
     * repeated one merge-patched (its count and last time), as client-go's event recorder does.
     */
    public static final List<Rule> EVENTS = List.of(new Rule("", "events", Set.of("create", "patch")));

    /** In the Lease's namespace (a Role): client-java's LeaseLock reads, creates and updates the Lease. */
    public static final List<Rule> LEADER_ELECTION = List.of(
            new Rule("coordination.k8s.io", "leases", Set.of("get", "create", "update")));

    /**
     * Cluster-wide, for the admission webhook's internal certificate manager: it reads the agent's two webhook
     * configurations and JSON-patches their caBundle ({@code resourceNames} in the chart keep it to those two).
     */
    public static final List<Rule> WEBHOOK_CONFIGURATIONS = List.of(
            new Rule("admissionregistration.k8s.io", "mutatingwebhookconfigurations", Set.of("get", "patch")),
            new Rule("admissionregistration.k8s.io", "validatingwebhookconfigurations", Set.of("get", "patch")));

    /** In the agent's namespace (a Role): the Secret that keeps the webhook's CA and serving certificate. */
    public static final List<Rule> WEBHOOK_CERTIFICATES = List.of(
            new Rule("", "secrets", Set.of("get", "create", "update")));

    /**
     * Cluster-wide, with {@code manageJobsWithoutQueueName} only: a namespace's labels, which the webhook matches
     * against the managed-jobs namespace selector (an AdmissionReview does not carry them).
     */
    public static final List<Rule> WEBHOOK_NAMESPACES = List.of(new Rule("", "namespaces", Set.of("get")));

    private ApiPermissions() {
    }
}
