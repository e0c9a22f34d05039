package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.QuotaTree;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configuration the core decides under, by name: ResourceFlavors, Cohorts, ClusterQueues, LocalQueues (by
 * {@code namespace/name}) and Namespaces (Kueue's cache of the configuration objects). {@link SchedulerState} feeds
 * it and reacts to each change; the admission cycle reads it.
 */
public final class ConfigurationIndex {

    private final Map<String, ResourceFlavor> flavors = new TreeMap<>();
    private final Map<String, CohortSpec> cohorts = new TreeMap<>();
    private final Map<String, ClusterQueueSpec> clusterQueues = new TreeMap<>();
    private final Map<String, LocalQueueSpec> localQueues = new HashMap<>();
    private final Map<String, Namespace> namespaces = new HashMap<>();

    void putFlavor(ResourceFlavor flavor) {
        flavors.put(flavor.name(), flavor);
    }

    void removeFlavor(String name) {
        flavors.remove(name);
    }

    void putCohort(CohortSpec cohort) {
        cohorts.put(cohort.name(), cohort);
    }

    void removeCohort(String name) {
        cohorts.remove(name);
    }

    void putClusterQueue(ClusterQueueSpec clusterQueue) {
        clusterQueues.put(clusterQueue.name(), clusterQueue);
    }

    void removeClusterQueue(String name) {
        clusterQueues.remove(name);
    }

    /** Returns the LocalQueue it replaces, or null. */
    LocalQueueSpec putLocalQueue(LocalQueueSpec localQueue) {
        return localQueues.put(localQueue.key(), localQueue);
    }

    /** Returns the LocalQueue removed, or null. */
    LocalQueueSpec removeLocalQueue(String key) {
        return localQueues.remove(key);
    }

    void putNamespace(Namespace namespace) {
        namespaces.put(namespace.name(), namespace);
    }

    /** Returns the namespace removed, or null. */
    Namespace removeNamespace(String name) {
        return namespaces.remove(name);
    }

    public ResourceFlavor flavor(String name) {
        return flavors.get(name);
    }

    public ClusterQueueSpec clusterQueue(String name) {
        return clusterQueues.get(name);
    }

    /** Every ClusterQueue by name, in name order (the live map: the cycle's snapshot reads it). */
    /** Whether any ClusterQueue has admission checks: without any, admission is one phase everywhere. */
    public boolean hasAdmissionChecks() {
        return clusterQueues.values().stream().anyMatch(q -> !q.admissionChecks().isEmpty());
    }

    Map<String, ClusterQueueSpec> clusterQueues() {
        return clusterQueues;
    }

    Map<String, ResourceFlavor> flavors() {
        return flavors;
    }

    Collection<CohortSpec> cohorts() {
        return cohorts.values();
    }

    /** A LocalQueue by {@code namespace/name}, or null. */
    public LocalQueueSpec localQueue(String key) {
        return localQueues.get(key);
    }

    Collection<LocalQueueSpec> localQueues() {
        return localQueues.values();
    }

    /** A namespace never applied exists for its LocalQueues and workloads, with no labels but its name. */
    public Namespace namespace(String name) {
        return namespaces.getOrDefault(name, new Namespace(name, Map.of()));
    }

    /**
     * The part one cohort tree sees: its ClusterQueues with their cohorts ({@code tree} says which), the
     * LocalQueues feeding them, every flavor and namespace. Specs are immutable records, so the copy shares them.
     */
    void copyInto(ConfigurationIndex copy, Collection<String> clusterQueueNames, QuotaTree tree) {
        copy.flavors.putAll(flavors);
        copy.namespaces.putAll(namespaces);
        for (String cq : clusterQueueNames) {
            ClusterQueueSpec spec = clusterQueues.get(cq);
            if (spec != null) {
                copy.clusterQueues.put(cq, spec);
                QuotaNode node = tree.clusterQueue(cq);
                if (node.hasParent()) {
                    copyCohorts(node.root(), copy);
                }
            }
        }
        for (LocalQueueSpec lq : localQueues.values()) {
            if (clusterQueueNames.contains(lq.clusterQueue())) {
                copy.localQueues.put(lq.key(), lq);
            }
        }
    }

    private void copyCohorts(QuotaNode cohort, ConfigurationIndex copy) {
        CohortSpec spec = cohorts.get(cohort.name());
        if (spec != null) {
            copy.cohorts.put(spec.name(), spec);
        }
        cohort.childCohorts().forEach(child -> copyCohorts(child, copy));
    }
}
