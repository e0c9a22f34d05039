package dev.platform.scheduler.core.placement;

import dev.platform.scheduler.core.model.PreemptionOrder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Which workload holds which node pool, and where new or disrupted workloads can go.
 * Deterministic: pools are tried by cluster then name. Not thread-safe: owned by the scheduling
 * loop.
 */
public final class SlicePlacement {

    private final Map<PoolKey, NodePool> pools = new TreeMap<>();
    private final Map<PoolKey, Holder> holders = new HashMap<>();
    /** Bumped whenever pools may have become free: the inventory changed, a holder let go or was lowered. */
    private long generation;

    /** A workload holding pools, as the hotswap victim search orders it. */
    public record Holder(String workloadUid, int priority, Instant admittedAt) {

        Holder withPriority(int changed) {
            return new Holder(workloadUid, changed, admittedAt);
        }
    }

    /** The cluster a workload runs in and its pools per PodSet name. */
    public record Placement(String cluster, Map<String, List<PoolKey>> poolsByPodSet) {
        public Placement {
            Map<String, List<PoolKey>> copy = new LinkedHashMap<>();
            poolsByPodSet.forEach((k, v) -> copy.put(k, List.copyOf(v)));
            poolsByPodSet = Collections.unmodifiableMap(copy);
        }

        public List<PoolKey> allPools() {
            return poolsByPodSet.values().stream().flatMap(List::stream).toList();
        }
    }

    /**
     * How a victim search orders holders of equal priority ({@link PreemptionOrder}): as the disrupted workload's
     * ClusterQueue orders its preemption candidates, with {@code lostWork}, what each holder would lose were it
     * preempted now in resource-seconds, read only under LeastLostWork.
     */
    public record VictimOrder(PreemptionOrder equalPriority, ToDoubleFunction<Holder> lostWork) {

        /** Kueue's: the most recently admitted first. */
        public static final VictimOrder KUEUE = new VictimOrder(PreemptionOrder.MostRecentlyAdmitted, h -> 0);

        /** Lower priority first, then {@code equalPriority}, then uid. */
        Comparator<Holder> comparator() {
            return Comparator.comparingInt(Holder::priority)
                    .thenComparing((a, b) -> equalPriority.compareEqualPriority(a, b, Holder::admittedAt, lostWork))
                    .thenComparing(Holder::workloadUid);
        }
    }

    /**
     * A hotswap decision: the pools that replace the broken ones and the workloads to evict to free
     * them (empty when free pools sufficed).
     */
    public record Replacement(Placement placement, List<Holder> victims) {
    }

    // ---- inventory and holdings

    public void replaceInventory(Iterable<NodePool> inventory) {
        generation++;
        pools.clear();
        inventory.forEach(p -> pools.put(p.key(), p));
    }

    public Optional<NodePool> pool(PoolKey key) {
        return Optional.ofNullable(pools.get(key));
    }

    public void assign(Holder holder, Placement placement) {
        placement.allPools().forEach(p -> holders.put(p, holder));
    }

    public void release(String workloadUid) {
        if (holders.values().removeIf(h -> h.workloadUid().equals(workloadUid))) {
            generation++;
        }
    }

    /**
     * A holder's priority changed (its priority-class label): the victim searches of {@link #replace}
     * and {@link #placeByPreempting} weigh it by the new one at once; its pools and admission time stay.
     * A lowered priority may make it a victim of a search that found none, so the generation moves.
     */
    public void changePriority(String workloadUid, int priority) {
        boolean lowered = false;
        for (Map.Entry<PoolKey, Holder> holding : holders.entrySet()) {
            Holder holder = holding.getValue();
            if (holder.workloadUid().equals(workloadUid) && holder.priority() != priority) {
                lowered |= priority < holder.priority();
                holding.setValue(holder.withPriority(priority));
            }
        }
        if (lowered) {
            generation++;
        }
    }

    /**
     * Changes whenever pools may have become free or obtainable (inventory replaced, a holder released
     * or lowered in priority): a placement that failed at one generation fails again until it changes.
     */
    public long generation() {
        return generation;
    }

    public List<PoolKey> poolsOf(String workloadUid) {
        return holders.entrySet().stream().filter(e -> e.getValue().workloadUid().equals(workloadUid))
                .map(Map.Entry::getKey).sorted().toList();
    }

    /** Workloads holding any of the given pools. */
    public Set<String> holdersOf(Set<PoolKey> poolKeys) {
        Set<String> uids = new HashSet<>();
        poolKeys.forEach(k -> {
            Holder h = holders.get(k);
            if (h != null) {
                uids.add(h.workloadUid());
            }
        });
        return uids;
    }

    // ---- placement of a new admission

    /**
     * Free healthy pools for every exclusive slice of the request (a workload without exclusive
     * slices needs a cluster with a fitting healthy pool, shared), or empty when there are none.
     */
    public Optional<Placement> place(SliceRequest request) {
        if (request.slicesNeeded() == 0) {
            return assignFrom(request, pools.values().stream()
                    .filter(p -> p.health() == NodePool.Health.Healthy).map(NodePool::key).toList());
        }
        return assignFrom(request, freePools(request.workloadUid(), Set.of()));
    }

    /**
     * Pools for a waiting workload that may preempt (priority-only mode, as kube-scheduler
     * preempts): free healthy pools when they suffice, else those of the fewest strictly-lower-
     * priority holders in the same candidate order as {@link #replace}. Empty when even evicting
     * every lower-priority holder would not make room.
     */
    public Optional<Replacement> placeByPreempting(SliceRequest request) {
        return replace(request, Set.of(), h -> true, VictimOrder.KUEUE);
    }

    // ---- hotswap

    /**
     * Replacement pools for {@code disrupted}, which holds {@code broken} pools: free healthy
     * compatible pools first; else the fewest strictly-lower-priority holders of compatible
     * healthy pools, in Kueue's candidate order (lower priority first, then most recently
     * admitted first, or the least lost work first where {@code order} says so, uid last), trimmed back to a
     * minimal set; only holders {@code mayBeVictim} accepts are candidates (a ClusterQueue's minimum runtime may
     * protect its workloads from hotswap). Empty when even that is not enough.
     */
    public Optional<Replacement> replace(SliceRequest disrupted, Set<PoolKey> broken, Predicate<Holder> mayBeVictim,
                                         VictimOrder order) {
        Set<PoolKey> kept = new HashSet<>(poolsOf(disrupted.workloadUid()));
        kept.removeAll(broken);
        List<PoolKey> free = freePools(disrupted.workloadUid(), Set.of());
        Optional<Placement> withFree = assignFrom(disrupted, concat(healthyKept(kept), free));
        if (withFree.isPresent()) {
            return Optional.of(new Replacement(withFree.get(), List.of()));
        }
        List<Holder> candidates = holders.values().stream().distinct()
                .filter(h -> h.priority() < disrupted.priority())
                .filter(h -> !h.workloadUid().equals(disrupted.workloadUid()))
                .filter(mayBeVictim)
                .sorted(order.comparator())
                .toList();
        List<Holder> victims = new ArrayList<>();
        for (Holder candidate : candidates) {
            victims.add(candidate);
            if (assignFrom(disrupted, concat(healthyKept(kept), freePoolsWithout(disrupted.workloadUid(), victims)))
                    .isPresent()) {
                return Optional.of(minimal(disrupted, kept, victims));
            }
        }
        return Optional.empty();
    }

    /** Fill-back: drop victims, most protected first, while the disrupted workload still fits. */
    private Replacement minimal(SliceRequest disrupted, Set<PoolKey> kept, List<Holder> victims) {
        List<Holder> needed = new ArrayList<>(victims);
        for (int i = needed.size() - 1; i >= 0; i--) {
            Holder h = needed.remove(i);
            if (assignFrom(disrupted, concat(healthyKept(kept), freePoolsWithout(disrupted.workloadUid(), needed)))
                    .isEmpty()) {
                needed.add(i, h);
            }
        }
        Placement placement = assignFrom(disrupted, concat(healthyKept(kept),
                freePoolsWithout(disrupted.workloadUid(), needed))).orElseThrow();
        return new Replacement(placement, List.copyOf(needed));
    }

    private List<PoolKey> healthyKept(Set<PoolKey> kept) {
        return kept.stream().filter(k -> pools.containsKey(k) && pools.get(k).health() == NodePool.Health.Healthy)
                .sorted().toList();
    }

    private List<PoolKey> freePoolsWithout(String requester, List<Holder> evicted) {
        Set<String> uids = new HashSet<>();
        evicted.forEach(h -> uids.add(h.workloadUid()));
        return freePools(requester, uids);
    }

    /**
     * Healthy pools nobody holds that {@code requester} may use, counting pools of {@code evicted} workloads as free;
     * the pools provisioned for the requester first, so that it runs on the capacity it asked for. A pool provisioned
     * for another workload is never free for this one.
     */
    private List<PoolKey> freePools(String requester, Set<String> evicted) {
        List<PoolKey> own = new ArrayList<>();
        List<PoolKey> free = new ArrayList<>();
        for (NodePool pool : pools.values()) {
            Holder holder = holders.get(pool.key());
            if (pool.health() == NodePool.Health.Healthy && pool.usableBy(requester)
                    && (holder == null || evicted.contains(holder.workloadUid()))) {
                (pool.reservedFor() != null ? own : free).add(pool.key());
            }
        }
        own.addAll(free);
        return own;
    }

    /**
     * Assigns pools in the given order of preference to the exclusive slices; a workload's slices
     * stay within one cluster (a JobSet runs in one cluster).
     */
    private Optional<Placement> assignFrom(SliceRequest request, List<PoolKey> candidates) {
        Map<String, List<PoolKey>> byCluster = new TreeMap<>();
        for (PoolKey key : candidates) {
            byCluster.computeIfAbsent(key.cluster(), c -> new ArrayList<>()).add(key);
        }
        List<String> preferred = candidates.isEmpty() ? List.of() : List.of(candidates.get(0).cluster());
        List<String> clusterOrder = new ArrayList<>(preferred);
        byCluster.keySet().stream().filter(c -> !preferred.contains(c)).forEach(clusterOrder::add);
        for (String cluster : clusterOrder) {
            Optional<Placement> placement = assignWithin(request, byCluster.get(cluster));
            if (placement.isPresent()) {
                return placement;
            }
        }
        return Optional.empty();
    }

    private Optional<Placement> assignWithin(SliceRequest request, List<PoolKey> candidates) {
        if (request.slicesNeeded() == 0) {
            // no dedicated pools: the first cluster where some healthy pool fits every PodSet's labels
            boolean fits = request.podSets().stream().allMatch(ps -> candidates.stream().anyMatch(k -> ps.fits(pools.get(k))));
            return fits ? Optional.of(new Placement(candidates.get(0).cluster(), Map.of())) : Optional.empty();
        }
        Set<PoolKey> taken = new HashSet<>();
        Map<String, List<PoolKey>> result = new LinkedHashMap<>();
        for (SliceRequest.PodSetSlices podSet : request.podSets()) {
            if (!podSet.exclusive()) {
                continue;
            }
            List<PoolKey> chosen = new ArrayList<>();
            for (PoolKey key : candidates) {
                if (chosen.size() == podSet.replicas()) {
                    break;
                }
                if (!taken.contains(key) && podSet.fits(pools.get(key))) {
                    chosen.add(key);
                    taken.add(key);
                }
            }
            if (chosen.size() < podSet.replicas()) {
                return Optional.empty();
            }
            result.put(podSet.name(), chosen);
        }
        return Optional.of(new Placement(candidates.get(0).cluster(), result));
    }

    private static List<PoolKey> concat(List<PoolKey> first, List<PoolKey> second) {
        List<PoolKey> all = new ArrayList<>(first);
        second.stream().filter(k -> !first.contains(k)).forEach(all::add);
        return all;
    }
}
