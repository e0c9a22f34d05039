package dev.platform.scheduler.core.quota;

import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.CohortSpec;
import dev.platform.scheduler.core.model.FlavorQuotas;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ResourceGroup;
import dev.platform.scheduler.core.model.ResourceQuota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The cohort forest with quotas and usage. The state keeps one, updated incrementally as workloads are admitted
 * and finish; each cycle works on a {@link #copy()} (Kueue's cache -> snapshot), which costs O(nodes), never
 * O(workloads).
 */
public final class QuotaTree {

    private final Map<String, QuotaNode> queues;
    private final Map<String, QuotaNode> cohorts;

    private QuotaTree(Map<String, QuotaNode> queues, Map<String, QuotaNode> cohorts) {
        this.queues = queues;
        this.cohorts = cohorts;
    }

    /**
     * Builds the tree. Cohorts named by a ClusterQueue or a parentName but not defined become implicit cohorts
     * without quota; a parentName that would close a cycle is ignored. {@code usageOf} gives each ClusterQueue's
     * own usage.
     */
    public static QuotaTree build(Collection<CohortSpec> cohortSpecs, Collection<ClusterQueueSpec> queueSpecs,
                                  Function<String, Map<FlavorResource, Long>> usageOf) {
        Map<String, CohortSpec> specs = new TreeMap<>();
        for (CohortSpec c : cohortSpecs) {
            specs.put(c.name(), c);
        }
        for (CohortSpec c : cohortSpecs) {
            if (c.parentName() != null) {
                specs.putIfAbsent(c.parentName(), CohortSpec.implicit(c.parentName()));
            }
        }
        for (ClusterQueueSpec q : queueSpecs) {
            if (q.cohort() != null) {
                specs.putIfAbsent(q.cohort(), CohortSpec.implicit(q.cohort()));
            }
        }
        Map<String, QuotaNode> cohorts = new LinkedHashMap<>();
        specs.forEach((name, spec) -> cohorts.put(name,
                new QuotaNode(name, false, quotasOf(spec.resourceGroups()), spec.fairWeight())));
        specs.forEach((name, spec) -> {
            if (spec.parentName() != null && !closesCycle(specs, name)) {
                cohorts.get(spec.parentName()).attach(cohorts.get(name));
            }
        });
        Map<String, QuotaNode> queues = new LinkedHashMap<>();
        queueSpecs.stream().sorted(java.util.Comparator.comparing(ClusterQueueSpec::name)).forEach(spec -> {
            QuotaNode node = new QuotaNode(spec.name(), true, quotasOf(spec.resourceGroups()), spec.fairWeight());
            node.setOwnUsage(usageOf.apply(spec.name()));
            queues.put(spec.name(), node);
            if (spec.cohort() != null) {
                cohorts.get(spec.cohort()).attach(node);
            }
        });
        QuotaTree tree = new QuotaTree(queues, cohorts);
        tree.recomputeTotals();
        return tree;
    }

    private static boolean closesCycle(Map<String, CohortSpec> specs, String start) {
        Set<String> seen = new HashSet<>();
        for (String n = start; n != null; n = specs.get(n).parentName()) {
            if (!seen.add(n)) {
                return true;
            }
        }
        return false;
    }

    private static Map<FlavorResource, ResourceQuota> quotasOf(List<ResourceGroup> groups) {
        Map<FlavorResource, ResourceQuota> quotas = new HashMap<>();
        for (ResourceGroup g : groups) {
            for (FlavorQuotas f : g.flavors()) {
                for (ResourceQuota q : f.resources()) {
                    quotas.put(new FlavorResource(f.name(), q.name()), q);
                }
            }
        }
        return Map.copyOf(quotas);
    }

    private void recomputeTotals() {
        for (QuotaNode c : cohorts.values()) {
            if (!c.hasParent()) {
                recompute(c);
            }
        }
        for (QuotaNode q : queues.values()) {
            if (!q.hasParent()) {
                q.resetSubtreeQuota();
            }
        }
    }

    private static void recompute(QuotaNode cohort) {
        cohort.resetSubtreeQuota();
        cohort.setOwnUsage(Map.of());
        for (QuotaNode child : cohort.childCohorts()) {
            recompute(child);
            cohort.accumulateFrom(child);
        }
        for (QuotaNode child : cohort.childQueues()) {
            child.resetSubtreeQuota();
            cohort.accumulateFrom(child);
        }
    }

    /** An independent copy of usage over the same quotas. */
    public QuotaTree copy() {
        Map<String, QuotaNode> newCohorts = new LinkedHashMap<>();
        Map<String, QuotaNode> newQueues = new LinkedHashMap<>();
        cohorts.forEach((n, c) -> newCohorts.put(n, new QuotaNode(c)));
        queues.forEach((n, q) -> newQueues.put(n, new QuotaNode(q)));
        cohorts.forEach((n, c) -> {
            QuotaNode copy = newCohorts.get(n);
            c.childCohorts().forEach(ch -> copy.attach(newCohorts.get(ch.name())));
            c.childQueues().forEach(ch -> copy.attach(newQueues.get(ch.name())));
        });
        return new QuotaTree(newQueues, newCohorts);
    }

    public QuotaNode clusterQueue(String name) {
        return queues.get(name);
    }

    public QuotaNode cohort(String name) {
        return cohorts.get(name);
    }

    public Collection<QuotaNode> clusterQueues() {
        return queues.values();
    }

    /** "/root/.../cohort/cq", the form of Kueue's preemptor and preemptee paths (preemption.go buildCQPath). */
    public String path(String clusterQueue) {
        QuotaNode node = queues.get(clusterQueue);
        List<String> parts = new ArrayList<>();
        for (QuotaNode n = node; n != null; n = n.parent()) {
            parts.add(0, n.name());
        }
        return "/" + String.join("/", parts);
    }

    /** The tree's roots (cohorts without parent and standalone ClusterQueues), by name. */
    public List<QuotaNode> roots() {
        List<QuotaNode> roots = new ArrayList<>();
        cohorts.values().stream().filter(c -> !c.hasParent()).forEach(roots::add);
        queues.values().stream().filter(q -> !q.hasParent()).forEach(roots::add);
        roots.sort(java.util.Comparator.comparing(QuotaNode::name));
        return roots;
    }
}
