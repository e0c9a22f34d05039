package dev.platform.scheduler.core.quota;

import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ResourceQuota;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A ClusterQueue or a Cohort in the quota tree, mirroring Kueue's resourceNode (cache/scheduler/resource_node.go).
 * <p>
 * {@code subtreeQuota} is the node's own nominal quota plus what its children lend to it. The part of the node's
 * quota that it keeps from its parent (its "local quota") is subtreeQuota - lendingLimit when a lendingLimit is set,
 * else zero; usage beyond the local quota is stored in the parent. Every quantity is in milli-units.
 */
public final class QuotaNode {

    private final String name;
    private final boolean clusterQueue;
    private final Map<FlavorResource, ResourceQuota> quotas;
    private final double fairWeight;
    private final Map<FlavorResource, Long> subtreeQuota;
    private final Map<FlavorResource, Long> usage;
    private QuotaNode parent;
    private final List<QuotaNode> childCohorts = new ArrayList<>();
    private final List<QuotaNode> childQueues = new ArrayList<>();

    QuotaNode(String name, boolean clusterQueue, Map<FlavorResource, ResourceQuota> quotas, double fairWeight) {
        this.name = name;
        this.clusterQueue = clusterQueue;
        this.quotas = quotas;
        this.fairWeight = fairWeight;
        this.subtreeQuota = new HashMap<>();
        this.usage = new HashMap<>();
    }

    /** A copy for a snapshot: same quotas, own usage. */
    QuotaNode(QuotaNode source) {
        this.name = source.name;
        this.clusterQueue = source.clusterQueue;
        this.quotas = source.quotas;
        this.fairWeight = source.fairWeight;
        this.subtreeQuota = source.subtreeQuota;
        this.usage = new HashMap<>(source.usage);
    }

    public String name() {
        return name;
    }

    public boolean isClusterQueue() {
        return clusterQueue;
    }

    public QuotaNode parent() {
        return parent;
    }

    public boolean hasParent() {
        return parent != null;
    }

    public List<QuotaNode> childCohorts() {
        return childCohorts;
    }

    public List<QuotaNode> childQueues() {
        return childQueues;
    }

    public QuotaNode root() {
        QuotaNode n = this;
        while (n.parent != null) {
            n = n.parent;
        }
        return n;
    }

    /** Ancestors from the parent up to the root. */
    public List<QuotaNode> ancestors() {
        List<QuotaNode> path = new ArrayList<>();
        for (QuotaNode n = parent; n != null; n = n.parent) {
            path.add(n);
        }
        return path;
    }

    /** Every ClusterQueue under this node. */
    public List<QuotaNode> subtreeClusterQueues() {
        List<QuotaNode> out = new ArrayList<>();
        collectQueues(out);
        return out;
    }

    private void collectQueues(List<QuotaNode> out) {
        if (clusterQueue) {
            out.add(this);
            return;
        }
        for (QuotaNode c : childCohorts) {
            c.collectQueues(out);
        }
        out.addAll(childQueues);
    }

    void attach(QuotaNode child) {
        child.parent = this;
        (child.clusterQueue ? childQueues : childCohorts).add(child);
    }

    public ResourceQuota quota(FlavorResource fr) {
        return quotas.get(fr);
    }

    public long nominal(FlavorResource fr) {
        ResourceQuota q = quotas.get(fr);
        return q == null ? 0 : q.nominalQuota();
    }

    public long subtreeQuota(FlavorResource fr) {
        return subtreeQuota.getOrDefault(fr, 0L);
    }

    public long usage(FlavorResource fr) {
        return usage.getOrDefault(fr, 0L);
    }

    public Set<FlavorResource> flavorResources() {
        Set<FlavorResource> all = new TreeSet<>(subtreeQuota.keySet());
        all.addAll(usage.keySet());
        return all;
    }

    public double fairWeight() {
        return fairWeight;
    }

    /** The part of the quota kept from the parent: subtreeQuota - lendingLimit, or 0 without a lendingLimit. */
    public long localQuota(FlavorResource fr) {
        ResourceQuota q = quotas.get(fr);
        if (q != null && q.lendingLimit() != null) {
            return Math.max(0, subtreeQuota(fr) - q.lendingLimit());
        }
        return 0;
    }

    public long localAvailable(FlavorResource fr) {
        return Math.max(0, localQuota(fr) - usage(fr));
    }

    /** What this node can still use now, borrowing up to its limits (resource_node.go available). */
    public long available(FlavorResource fr) {
        if (parent == null) {
            return subtreeQuota(fr) - usage(fr);
        }
        long parentAvailable = parent.available(fr);
        ResourceQuota q = quotas.get(fr);
        if (q != null && q.borrowingLimit() != null) {
            long local = localQuota(fr);
            long storedInParent = subtreeQuota(fr) - local;
            long usedInParent = Math.max(0, usage(fr) - local);
            parentAvailable = Math.min(storedInParent - usedInParent + q.borrowingLimit(), parentAvailable);
        }
        return localAvailable(fr) + parentAvailable;
    }

    /** What this node could use if the whole cohort were empty (resource_node.go potentialAvailable). */
    public long potentialAvailable(FlavorResource fr) {
        if (parent == null) {
            return subtreeQuota(fr);
        }
        long avail = localQuota(fr) + parent.potentialAvailable(fr);
        ResourceQuota q = quotas.get(fr);
        if (q != null && q.borrowingLimit() != null) {
            avail = Math.min(subtreeQuota(fr) + q.borrowingLimit(), avail);
        }
        return avail;
    }

    /** Adds usage here and the part beyond the local quota up the tree. */
    public void addUsage(FlavorResource fr, long value) {
        long localAvailable = localAvailable(fr);
        usage.merge(fr, value, Long::sum);
        if (parent != null && value > localAvailable) {
            parent.addUsage(fr, value - localAvailable);
        }
    }

    public void removeUsage(FlavorResource fr, long value) {
        long storedInParent = usage(fr) - localQuota(fr);
        usage.merge(fr, -value, Long::sum);
        if (storedInParent <= 0 || parent == null) {
            return;
        }
        parent.removeUsage(fr, Math.min(value, storedInParent));
    }

    public void addUsage(Map<FlavorResource, Long> amounts) {
        amounts.forEach(this::addUsage);
    }

    public void removeUsage(Map<FlavorResource, Long> amounts) {
        amounts.forEach(this::removeUsage);
    }

    public boolean borrowingWith(FlavorResource fr, long value) {
        return usage(fr) + value > subtreeQuota(fr);
    }

    public boolean borrowing(FlavorResource fr) {
        return borrowingWith(fr, 0);
    }

    /** Usage within subtree quota for every given flavor-resource (Kueue IsWithinNominalInResources). */
    public boolean withinNominal(Collection<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (subtreeQuota(fr) < usage(fr)) {
                return false;
            }
        }
        return true;
    }

    /** Height in the cohort tree; a ClusterQueue is 0 (hierarchical_preemption.go getNodeHeight). */
    public int height() {
        if (clusterQueue) {
            return 0;
        }
        int h = Math.min(childCohorts.size() + childQueues.size(), 1);
        for (QuotaNode c : childCohorts) {
            h = Math.max(h, c.height() + 1);
        }
        return h;
    }

    /** The dominant resource share of this node, optionally with extra usage simulated. */
    public DominantResourceShare dominantResourceShare() {
        if (parent == null) {
            return DominantResourceShare.zero(fairWeight);
        }
        Map<String, Long> borrowed = new HashMap<>();
        Set<FlavorResource> borrowedFrs = new TreeSet<>();
        for (FlavorResource fr : subtreeQuota.keySet()) {
            long b = usage(fr) - subtreeQuota(fr);
            if (b > 0) {
                borrowed.merge(fr.resource(), b, Long::sum);
                borrowedFrs.add(fr);
            }
        }
        if (borrowed.isEmpty()) {
            return DominantResourceShare.zero(fairWeight);
        }
        Map<String, Long> lendable = new HashMap<>();
        for (FlavorResource fr : root().subtreeQuota.keySet()) {
            lendable.merge(fr.resource(), parent.potentialAvailable(fr), Long::sum);
        }
        double ratio = 0;
        String dominant = "";
        for (String resource : new TreeSet<>(borrowed.keySet())) {
            long lr = lendable.getOrDefault(resource, 0L);
            if (lr > 0) {
                double r = borrowed.get(resource) * 1000.0 / lr;
                if (r > ratio) {
                    ratio = r;
                    dominant = resource;
                }
            }
        }
        return new DominantResourceShare(fairWeight, ratio, dominant, Set.copyOf(borrowedFrs));
    }

    void resetSubtreeQuota() {
        subtreeQuota.clear();
        quotas.forEach((fr, q) -> subtreeQuota.put(fr, q.nominalQuota()));
    }

    /** Adds a child's lendable quota and stored usage to this cohort (resource_node.go accumulateFromChild). */
    void accumulateFrom(QuotaNode child) {
        child.subtreeQuota.forEach((fr, q) -> subtreeQuota.merge(fr, q - child.localQuota(fr),
                QuotaNode::saturatedSum));
        child.usage.forEach((fr, u) -> {
            long delta = Math.max(0, u - child.localQuota(fr));
            if (delta != 0) {
                usage.merge(fr, delta, QuotaNode::saturatedSum);
            }
        });
    }

    /**
     * Each quota is at most Kubernetes' MaxMilliValue in thousandths, but a cohort adds up many:
     * past {@code Long.MAX_VALUE} the sum stays there instead of wrapping to a negative quota.
     */
    static long saturatedSum(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    void setOwnUsage(Map<FlavorResource, Long> own) {
        usage.clear();
        usage.putAll(own);
    }

    @Override
    public String toString() {
        return name;
    }
}
