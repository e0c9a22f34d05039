package dev.platform.scheduler.scheduling;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.core.SchedulerState;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The configuration as the scheduling loop's state knows it: every kind re-read and applied to
 * the core whenever the config audit has moved (any apply or delete appends to it), objects gone
 * since removed, plus what placement needs beyond the core (flavor node labels and tolerations, PriorityClasses
 * that never preempt). Owned by the loop thread.
 */
final class ConfigurationMirror {

    private final ConfigStore config;
    private final Map<String, Map<String, String>> flavorLabels = new HashMap<>();
    private final Map<String, List<ResourceFlavorManifest.Toleration>> flavorTolerations = new HashMap<>();
    private final Set<String> nonPreemptingClasses = new HashSet<>();
    private final Set<String> flavors = new HashSet<>();
    private final Set<String> cohorts = new HashSet<>();
    private final Set<String> clusterQueues = new HashSet<>();
    private final Set<String> localQueues = new HashSet<>();
    private final Set<String> namespaces = new HashSet<>();
    private long lastAudit = -1;

    ConfigurationMirror(ConfigStore config) {
        this.config = config;
    }

    /** Node labels per ResourceFlavor name; a live view, kept current by {@link #refresh}. */
    Map<String, Map<String, String>> flavorLabels() {
        return flavorLabels;
    }

    /** Node labels and tolerations per ResourceFlavor name, what a START puts into pod templates; a live view. */
    FlavorInjections flavorInjections() {
        return new FlavorInjections(flavorLabels, flavorTolerations);
    }

    /** Names of the PriorityClasses with {@code preemptionPolicy: Never}; a live view. */
    Set<String> nonPreemptingClasses() {
        return nonPreemptingClasses;
    }

    /** Applies everything again on the next {@link #refresh}: {@code state} is a new one. */
    void reset() {
        lastAudit = -1;
        flavors.clear();
        cohorts.clear();
        clusterQueues.clear();
        localQueues.clear();
        namespaces.clear();
    }

    /** Brings {@code state} in line with the stored configuration if it changed; true when it did. */
    boolean refresh(SchedulerState state) {
        long audit = config.latestChange();
        if (audit == lastAudit) {
            return false;
        }
        lastAudit = audit;
        flavorLabels.clear();
        flavorTolerations.clear();
        Set<String> flavorsNow = new HashSet<>();
        for (ResourceFlavorManifest f : config.list(Kind.RESOURCE_FLAVOR, ResourceFlavorManifest.class)) {
            state.applyResourceFlavor(CoreMapping.flavor(f));
            flavorsNow.add(f.name());
            flavorLabels.put(f.name(), f.nodeLabels());
            flavorTolerations.put(f.name(), f.tolerations());
        }
        Set<String> cohortsNow = new HashSet<>();
        for (CohortManifest c : config.list(Kind.COHORT, CohortManifest.class)) {
            state.applyCohort(CoreMapping.cohort(c));
            cohortsNow.add(c.name());
        }
        Set<String> clusterQueuesNow = new HashSet<>();
        for (ClusterQueueManifest q : config.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class)) {
            state.applyClusterQueue(CoreMapping.clusterQueue(q));
            clusterQueuesNow.add(q.name());
        }
        Set<String> localQueuesNow = new HashSet<>();
        for (LocalQueueManifest l : config.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class)) {
            state.applyLocalQueue(CoreMapping.localQueue(l));
            localQueuesNow.add(l.namespace() + "/" + l.name());
        }
        Set<String> namespacesNow = new HashSet<>();
        for (NamespaceManifest n : config.list(Kind.NAMESPACE, NamespaceManifest.class)) {
            state.applyNamespace(CoreMapping.namespace(n));
            namespacesNow.add(n.name());
        }
        // Dependents first: a LocalQueue before its ClusterQueue, a ClusterQueue before its cohort and flavors.
        removeGone(namespaces, namespacesNow, state::removeNamespace);
        removeGone(localQueues, localQueuesNow, key -> {
            String[] parts = key.split("/", 2);
            state.removeLocalQueue(parts[0], parts[1]);
        });
        removeGone(clusterQueues, clusterQueuesNow, state::removeClusterQueue);
        removeGone(cohorts, cohortsNow, state::removeCohort);
        removeGone(flavors, flavorsNow, state::removeResourceFlavor);
        nonPreemptingClasses.clear();
        config.list(Kind.PRIORITY_CLASS, PriorityClassManifest.class).stream()
                .filter(p -> "Never".equals(p.preemptionPolicy())).forEach(p -> nonPreemptingClasses.add(p.name()));
        return true;
    }

    /** Removes from the state what {@code known} had and {@code now} has not; then {@code known} is {@code now}. */
    private static void removeGone(Set<String> known, Set<String> now, Consumer<String> remove) {
        known.stream().filter(k -> !now.contains(k)).forEach(remove);
        known.clear();
        known.addAll(now);
    }
}
