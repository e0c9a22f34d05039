package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.FlavorResource;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The workloads holding quota (Kueue's cache of admitted workloads): by uid and by ClusterQueue, with each
 * ClusterQueue's usage per flavor-resource kept incrementally, and the deactivated ones the next cycle evicts.
 */
public final class AdmittedRegistry {

    private final Map<String, Map<String, AdmittedWorkload>> byQueue = new HashMap<>();
    private final Map<String, AdmittedWorkload> byUid = new HashMap<>();
    private final Map<String, Map<FlavorResource, Long>> usageByQueue = new HashMap<>();
    /** Deactivated workloads still holding quota: the next cycle evicts them, and they are not requeued. */
    private final Set<String> deactivating = new HashSet<>();

    void add(AdmittedWorkload admitted) {
        byQueue.computeIfAbsent(admitted.clusterQueue(), k -> new TreeMap<>()).put(admitted.uid(), admitted);
        byUid.put(admitted.uid(), admitted);
        Map<FlavorResource, Long> usage = usageByQueue.computeIfAbsent(admitted.clusterQueue(), k -> new HashMap<>());
        admitted.usage().forEach((fr, v) -> usage.merge(fr, v, Long::sum));
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
}
