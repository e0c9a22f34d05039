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
     * the eviction subresource so PodDisruptionBudgets hold; JobSets are read, watched, created,
     * merge-patched (pin, suspend, resume) and deleted, never updated.
     */
    public static final List<Rule> CLUSTER = List.of(
            new Rule("", "nodes", Set.of("list", "watch")),
            new Rule("", "pods", Set.of("list", "watch")),
            new Rule("", "pods/eviction", Set.of("create")),
            new Rule(KubernetesCluster.JOBSET_GROUP, "jobsets", Set.of("get", "list", "watch", "create", "patch", "delete")));

    /** In the Lease's namespace (a Role): client-java's LeaseLock reads, creates and updates the Lease. */
    public static final List<Rule> LEADER_ELECTION = List.of(
            new Rule("coordination.k8s.io", "leases", Set.of("get", "create", "update")));

    private ApiPermissions() {
    }
}
