package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.QuotaTree;
import dev.platform.scheduler.core.quota.Snapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The workloads holding quota (Kueue's cache of admitted workloads): by uid and by ClusterQueue, with each
 * ClusterQueue's usage per flavor-resource kept incrementally, and the deactivated ones the next cycle evicts.
 * Like Kueue's cache it keeps the quota tree over the configuration and that usage, and takes the snapshot a cycle
 * starts from.
 */
public final class AdmittedRegistry {

    private final ConfigurationIndex configuration;
    /** Built on first use after a configuration change; admissions and releases keep its usage current. */
    private QuotaTree tree;

    private final Map<String, Map<String, AdmittedWorkload>> byQueue = new HashMap<>();
    private final Map<String, AdmittedWorkload> byUid = new HashMap<>();
    private final Map<String, Map<FlavorResource, Long>> usageByQueue = new HashMap<>();
    /** Deactivated workloads still holding quota: the next cycle evicts them, and they are not requeued. */
    private final Set<String> deactivating = new HashSet<>();

    AdmittedRegistry(ConfigurationIndex configuration) {
        this.configuration = configuration;
    }

    void add(AdmittedWorkload admitted) {
        byQueue.computeIfAbsent(admitted.clusterQueue(), k -> new TreeMap<>()).put(admitted.uid(), admitted);
        byUid.put(admitted.uid(), admitted);
        Map<FlavorResource, Long> usage = usageByQueue.computeIfAbsent(admitted.clusterQueue(), k -> new HashMap<>());
        admitted.usage().forEach((fr, v) -> usage.merge(fr, v, Long::sum));
        QuotaNode node = tree == null ? null : tree.clusterQueue(admitted.clusterQueue());
        if (node != null) {
            node.addUsage(admitted.usage());
        }
    }

    /** Its quota is released; returns the workload removed, or null when it held none. */
    AdmittedWorkload remove(String uid) {
        AdmittedWorkload admitted = byUid.remove(uid);
        if (admitted == null) {
            return null;
        }
        deactivating.remove(uid);
        byQueue.get(admitted.clusterQueue()).remove(uid);
        Map<FlavorResource, Long> usage = usageByQueue.get(admitted.clusterQueue());
        admitted.usage().forEach((fr, v) -> usage.merge(fr, -v, Long::sum));
        QuotaNode node = tree == null ? null : tree.clusterQueue(admitted.clusterQueue());
        if (node != null) {
            node.removeUsage(admitted.usage());
        }
        return admitted;
    }

    /** The same admission, changed (its priority, or marked as being evicted). */
    void replace(AdmittedWorkload changed) {
        byUid.put(changed.uid(), changed);
        byQueue.get(changed.clusterQueue()).put(changed.uid(), changed);
    }

    AdmittedWorkload get(String uid) {
        return byUid.get(uid);
    }

    public Optional<AdmittedWorkload> find(String uid) {
        return Optional.ofNullable(byUid.get(uid));
    }

    public Collection<AdmittedWorkload> all() {
        return List.copyOf(byUid.values());
    }

    /** The admitted workloads of each ClusterQueue, by uid (the live maps: the cycle's snapshot reads them). */
    Map<String, Map<String, AdmittedWorkload>> byQueue() {
        return byQueue;
    }

    /** Usage of a ClusterQueue per flavor-resource, in milli-units. */
    public Map<FlavorResource, Long> usage(String clusterQueue) {
        return Map.copyOf(liveUsage(clusterQueue));
    }

    /** A ClusterQueue's usage per flavor-resource in milli-units (the live map; empty when it holds none). */
    Map<FlavorResource, Long> liveUsage(String clusterQueue) {
        return usageByQueue.getOrDefault(clusterQueue, Map.of());
    }

    /** Marks an admitted workload deactivated; false when it holds no quota or already was. */
    boolean markDeactivating(String uid) {
        return byUid.containsKey(uid) && deactivating.add(uid);
    }

    void clearDeactivating(String uid) {
        deactivating.remove(uid);
    }

    /** Whether an admitted workload was deactivated and waits for the cycle to evict it. */
    boolean deactivating(String uid) {
        return deactivating.contains(uid);
    }

    int count() {
        return byUid.size();
    }

    /** Copies one ClusterQueue's admitted workloads, usage and deactivations into {@code copy}. */
    void copyInto(AdmittedRegistry copy, String clusterQueue) {
        Map<String, AdmittedWorkload> admitted = byQueue.get(clusterQueue);
        if (admitted == null) {
            return;
        }
        copy.byQueue.put(clusterQueue, new TreeMap<>(admitted));
        admitted.forEach(copy.byUid::put);
        admitted.keySet().stream().filter(deactivating::contains).forEach(copy.deactivating::add);
        copy.usageByQueue.put(clusterQueue, new HashMap<>(usageByQueue.getOrDefault(clusterQueue, Map.of())));
    }

    /** The configuration changed: the quota tree is built again when next needed. */
    void configurationChanged() {
        tree = null;
    }

    /** The cohort forest over the ClusterQueues, with the usage of the workloads admitted through each. */
    QuotaTree quotaTree() {
        if (tree == null) {
            tree = QuotaTree.build(configuration.cohorts(), configuration.clusterQueues().values(), this::liveUsage);
        }
        return tree;
    }

    /** The ClusterQueues sharing a cohort tree with {@code clusterQueue}: itself alone when it has no spec. */
    List<String> cohortTreeOf(String clusterQueue) {
        QuotaNode node = quotaTree().clusterQueue(clusterQueue);
        return node == null ? List.of(clusterQueue)
                : node.root().subtreeClusterQueues().stream().map(QuotaNode::name).toList();
    }

    /**
     * The cohort trees over every ClusterQueue with a spec, admitted workloads or one of {@code pendingQueues}, keyed
     * by the root ({@code cohort/<name>}, or {@code clusterqueue/<name>} for a standalone queue and for a queue
     * without a spec), each tree's queues in name order.
     */
    Map<String, List<String>> cohortTrees(Collection<String> pendingQueues) {
        Set<String> names = new TreeSet<>(configuration.clusterQueues().keySet());
        names.addAll(pendingQueues);
        names.addAll(byQueue.keySet());
        Map<String, List<String>> trees = new TreeMap<>();
        for (String cq : names) {
            QuotaNode node = quotaTree().clusterQueue(cq);
            String root = node == null || !node.hasParent() ? "clusterqueue/" + cq : "cohort/" + node.root().name();
            trees.computeIfAbsent(root, k -> new ArrayList<>()).add(cq);
        }
        return trees;
    }

    /** What a cycle starts from (Kueue's cache.Snapshot): a copy of the quota tree over the live configuration. */
    Snapshot snapshot(Instant now, ToDoubleFunction<AdmittedWorkload> localQueueUsage, Set<String> lostWorkResources) {
        return new Snapshot(quotaTree().copy(), configuration.clusterQueues(), configuration.flavors(), byQueue, now,
                localQueueUsage, lostWorkResources);
    }
}
