package dev.platform.web.configuration;

import dev.platform.web.console.LocalQueueView;

import java.util.List;
import java.util.Map;

/** What the read-only configuration page reads: every configuration object with its policies. */
public interface ConfigurationQueries {

    ConfigurationView configuration();

    record ConfigurationView(List<FlavorView> flavors, List<CohortView> cohorts, List<ClusterQueuePolicies> clusterQueues,
                             List<LocalQueueView> localQueues, List<PriorityClassView> priorityClasses,
                             List<NamespaceView> namespaces, List<TeamView> teams) {
    }

    /**
     * A Team object: its namespaces, its members with their roles ({@code alice (TeamLead)}), and the priority classes
     * its workloads may name (null: any).
     */
    record TeamView(String name, List<String> namespaces, List<String> members, List<String> allowedPriorityClasses) {
    }

    /** taints and tolerations in kubectl's {@code key=value:Effect} form. */
    record FlavorView(String name, Map<String, String> nodeLabels, List<String> nodeTaints, List<String> tolerations,
                      String topologyName) {
    }

    /** {@code implicit}: named by ClusterQueues only, no Cohort object. */
    record CohortView(String name, boolean implicit, String parentName, String fairSharingWeight,
                      List<QuotaLine> quotas, List<String> clusterQueues) {
    }

    /**
     * A ClusterQueue's settings with Kueue's defaults applied. {@code borrowWithinCohort} includes its
     * maxPriorityThreshold when set; {@code namespaceSelector} is empty when it selects every namespace.
     */
    record ClusterQueuePolicies(String name, String cohort, String queueingStrategy, String namespaceSelector,
                                String withinClusterQueue, String reclaimWithinCohort, String borrowWithinCohort,
                                String whenCanBorrow, String whenCanPreempt, String fungibilityPreference,
                                String fairSharingWeight, String stopPolicy, List<QuotaLine> quotas) {
    }

    /** Quota of one resource in one flavor, as the user wrote the quantities; limits null when unlimited. */
    record QuotaLine(String flavor, String resource, String nominalQuota, String borrowingLimit, String lendingLimit) {
    }

    /** A Namespace object: the labels ClusterQueue namespaceSelectors match, sorted by key. */
    record NamespaceView(String name, Map<String, String> labels) {
    }

    /** kind: PriorityClass (scheduling.k8s.io) or WorkloadPriorityClass (kueue). */
    record PriorityClassView(String kind, String name, int value, boolean globalDefault, String preemptionPolicy,
                             String description) {
    }
}
