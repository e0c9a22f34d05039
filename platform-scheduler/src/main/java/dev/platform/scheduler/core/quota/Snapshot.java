package dev.platform.scheduler.core.quota;

import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ResourceFlavor;
import dev.platform.scheduler.core.quota.QuotaNode;
import dev.platform.scheduler.core.quota.QuotaTree;
import dev.platform.scheduler.core.quota.Revert;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * What one cycle sees: a copy of the quota tree, the configuration, and read-only views of the admitted workloads.
 * Simulations mutate the copy and hand back a {@link Revert}.
 */
public final class Snapshot {

    private final QuotaTree tree;
    private final Map<String, ClusterQueueSpec> clusterQueues;
    private final Map<String, ResourceFlavor> flavors;
    private final Map<String, ? extends Map<String, AdmittedWorkload>> admittedByQueue;
    private final Instant now;
    private final ToDoubleFunction<AdmittedWorkload> localQueueUsage;
    private final Set<String> lostWorkResources;

    public Snapshot(QuotaTree tree, Map<String, ClusterQueueSpec> clusterQueues, Map<String, ResourceFlavor> flavors,
             Map<String, ? extends Map<String, AdmittedWorkload>> admittedByQueue, Instant now,
             ToDoubleFunction<AdmittedWorkload> localQueueUsage, Set<String> lostWorkResources) {
        this.tree = tree;
        this.clusterQueues = clusterQueues;
        this.flavors = flavors;
        this.admittedByQueue = admittedByQueue;
        this.now = now;
        this.localQueueUsage = localQueueUsage;
        this.lostWorkResources = lostWorkResources;
    }

    public QuotaTree tree() {
        return tree;
    }

    public QuotaNode node(String clusterQueue) {
        return tree.clusterQueue(clusterQueue);
    }

    public ClusterQueueSpec clusterQueue(String name) {
        return clusterQueues.get(name);
    }

    public ResourceFlavor flavor(String name) {
        return flavors.get(name);
    }

    public Instant now() {
        return now;
    }

    /**
     * Until when an admitted workload is protected from preemption by its ClusterQueue's minimum runtime, or null
     * when it is not (any more).
     */
    public Instant protectedUntil(AdmittedWorkload w) {
        ClusterQueueSpec spec = clusterQueues.get(w.clusterQueue());
        Instant end = spec == null ? null : spec.victimProtection().endsAt(w.admittedAt());
        return end != null && end.isAfter(now) ? end : null;
    }

    /**
     * The resource-seconds an admitted workload would lose, were it preempted at this snapshot's time: its admitted
     * lost-work resources since the later of its last checkpoint and its admission.
     */
    public double lostWork(AdmittedWorkload w) {
        return w.unsavedWork(lostWorkResources).resourceSecondsAt(now);
    }

    /** Whether some ClusterQueue may order its workloads by LocalQueue usage (admission fair sharing is on). */
    public boolean admissionFairSharing() {
        return localQueueUsage != null;
    }

    /**
     * The usage score of an admitted workload's LocalQueue, if its ClusterQueue uses admission fair sharing; NaN
     * otherwise.
     */
    public double localQueueUsage(AdmittedWorkload w) {
        return localQueueUsage == null ? Double.NaN : localQueueUsage.applyAsDouble(w);
    }

    /** Admitted workloads of a ClusterQueue, in a stable order. */
    public Collection<AdmittedWorkload> admitted(String clusterQueue) {
        Map<String, AdmittedWorkload> m = admittedByQueue.get(clusterQueue);
        return m == null ? List.of() : m.values();
    }

    /**
     * The lowest priority among a ClusterQueue's admitted workloads (Integer.MAX_VALUE when none), computed once
     * per cycle: most preemption searches can stop here, before looking at any candidate.
     */
    public int lowestAdmittedPriority(String clusterQueue) {
        return lowestPriority.computeIfAbsent(clusterQueue,
                cq -> admitted(cq).stream().mapToInt(AdmittedWorkload::priority).min().orElse(Integer.MAX_VALUE));
    }

    private final Map<String, Integer> lowestPriority = new java.util.HashMap<>();

    public void removeWorkload(AdmittedWorkload w) {
        tree.clusterQueue(w.clusterQueue()).removeUsage(w.usage());
    }

    public void addWorkload(AdmittedWorkload w) {
        tree.clusterQueue(w.clusterQueue()).addUsage(w.usage());
    }

    /** Removes the victims' usage until the returned Revert re-adds it. */
    public Revert simulateRemoval(Collection<AdmittedWorkload> victims) {
        List<AdmittedWorkload> removed = new ArrayList<>(victims);
        removed.forEach(this::removeWorkload);
        return () -> removed.forEach(this::addWorkload);
    }

    /** Removes usage from a ClusterQueue until the returned Revert adds it back. */
    public Revert simulateUsageRemoval(String clusterQueue, Map<FlavorResource, Long> usage) {
        QuotaNode node = tree.clusterQueue(clusterQueue);
        node.removeUsage(usage);
        return () -> node.addUsage(usage);
    }

    /** Adds usage to a ClusterQueue until the returned Revert removes it. */
    public Revert simulateAddition(String clusterQueue, Map<FlavorResource, Long> usage) {
        QuotaNode node = tree.clusterQueue(clusterQueue);
        node.addUsage(usage);
        return () -> node.removeUsage(usage);
    }
}
