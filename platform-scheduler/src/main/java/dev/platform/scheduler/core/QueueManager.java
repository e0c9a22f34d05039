package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.LocalQueueSpec;
import dev.platform.scheduler.core.model.Namespace;
import dev.platform.scheduler.core.model.Workload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The workloads waiting for quota (Kueue's queue manager): one {@link PendingQueue} per ClusterQueue, the workloads
 * whose LocalQueue does not exist (orphans), those backing off until their requeueAt, the deactivated ones kept out
 * of every queue, and the last pending decision reported for each.
 */
public final class QueueManager {

    private final ConfigurationIndex configuration;
    /** How a ClusterQueue orders its workloads by LocalQueue usage (admission fair sharing), or null. */
    private final Function<String, ToDoubleFunction<String>> usageOrder;

    private final Map<String, PendingQueue> queues = new HashMap<>();
    private final Map<String, Workload> pendingByUid = new HashMap<>();
    /** Pending workloads whose LocalQueue does not exist, by uid, in arrival order. */
    private final Map<String, Workload> orphans = new LinkedHashMap<>();
    /** Pending workloads kept out of their queue until their backoff ends (Kueue's requeueState.requeueAt). */
    private final Map<String, BackingOff> backingOff = new HashMap<>();
    /** Deactivated workloads (spec.active false) without quota: kept, not queued, until activated. */
    private final Map<String, Workload> inactive = new HashMap<>();
    private final Map<String, Decision.Pending> lastReported = new HashMap<>();

    private record BackingOff(Workload workload, Instant until) {
    }

    QueueManager(ConfigurationIndex configuration, Function<String, ToDoubleFunction<String>> usageOrder) {
        this.configuration = configuration;
        this.usageOrder = usageOrder;
    }

    /** A ClusterQueue's queue, made on first use. */
    PendingQueue queue(String clusterQueue) {
        PendingQueue q = queues.get(clusterQueue);
        if (q == null) {
            q = new PendingQueue();
            q.orderBy(usageOrder.apply(clusterQueue));
            queues.put(clusterQueue, q);
        }
        return q;
    }

    /** Every ClusterQueue's queue by name (the live map). */
    Map<String, PendingQueue> all() {
        return queues;
    }

    /** Queues {@code workload}; returns the ClusterQueue it joined, or null when its LocalQueue does not exist. */
    String add(Workload workload) {
        pendingByUid.put(workload.uid(), workload);
        LocalQueueSpec lq = configuration.localQueue(workload.localQueueKey());
        if (lq == null) {
            orphans.put(workload.uid(), workload);
            return null;
        }
        queue(lq.clusterQueue()).add(workload);
        return lq.clusterQueue();
    }

    /**
     * Forgets a pending workload, active, backing off or inactive; returns the ClusterQueue whose queue it left, or
     * null when it was in none.
     */
    String remove(String uid) {
        if (backingOff.remove(uid) != null || inactive.remove(uid) != null) {
            return null;
        }
        Workload w = pendingByUid.remove(uid);
        if (w == null) {
            return null;
        }
        lastReported.remove(uid);
        // A pending workload is either an orphan or in the queue of its LocalQueue's ClusterQueue.
        if (orphans.remove(uid) != null) {
            return null;
        }
        String cq = configuration.localQueue(w.localQueueKey()).clusterQueue();
        queue(cq).remove(w);
        return cq;
    }

    /** An admission the cycle decided: the workload leaves its queue. */
    void admitted(Workload w, String clusterQueue) {
        pendingByUid.remove(w.uid());
        queue(clusterQueue).remove(w);
        lastReported.remove(w.uid());
    }

    Workload pending(String uid) {
        return pendingByUid.get(uid);
    }

    /** Kept out of its queue until {@code until}. */
    void backOff(Workload workload, Instant until) {
        backingOff.put(workload.uid(), new BackingOff(workload, until));
    }

    /** The workloads whose backoff has ended by {@code now}, taken out, earliest first (then by uid). */
    List<Workload> takeEndedBackoffs(Instant now) {
        if (backingOff.isEmpty()) {
            return List.of();
        }
        List<BackingOff> ended = backingOff.values().stream().filter(b -> !b.until().isAfter(now))
                .sorted(Comparator.comparing(BackingOff::until).thenComparing(b -> b.workload().uid()))
                .toList();
        ended.forEach(b -> backingOff.remove(b.workload().uid()));
        return ended.stream().map(BackingOff::workload).toList();
    }

    /** Takes a workload out of its backoff; null when it was not backing off. */
    Workload takeBackingOff(String uid) {
        BackingOff held = backingOff.remove(uid);
        return held == null ? null : held.workload();
    }

    void keepInactive(Workload workload) {
        inactive.put(workload.uid(), workload);
    }

    /** Takes a kept inactive workload out; null when it was not kept. */
    Workload takeInactive(String uid) {
        return inactive.remove(uid);
    }

    boolean isInactive(String uid) {
        return inactive.containsKey(uid);
    }

    /** A waiting workload that is not queued (inactive or backing off) gets its new priority; false when none. */
    boolean reprioritiseHeld(String uid, int priority) {
        Workload kept = inactive.get(uid);
        if (kept != null) {
            inactive.put(uid, kept.withPriority(priority));
            return true;
        }
        BackingOff held = backingOff.get(uid);
        if (held != null) {
            backingOff.put(uid, new BackingOff(held.workload().withPriority(priority), held.until()));
            return true;
        }
        return false;
    }

    /** Workloads whose LocalQueue does not exist, in arrival order (the live view). */
    Collection<Workload> orphans() {
        return orphans.values();
    }

    /** The orphans of a LocalQueue that now exists, taken out in arrival order. */
    List<Workload> adoptOrphansOf(String localQueueKey) {
        List<Workload> adopted = new ArrayList<>();
        for (Workload w : new ArrayList<>(orphans.values())) {
            if (w.localQueueKey().equals(localQueueKey)) {
                orphans.remove(w.uid());
                adopted.add(w);
            }
        }
        return adopted;
    }

    /** The workloads of a LocalQueue that went away wait as orphans. */
    void orphanAll(LocalQueueSpec removed) {
        PendingQueue q = queue(removed.clusterQueue());
        for (Workload w : q.all()) {
            if (w.localQueueKey().equals(removed.key())) {
                q.remove(w);
                orphans.put(w.uid(), w);
            }
        }
    }

    /**
     * A LocalQueue now feeds another ClusterQueue (Kueue's Manager.UpdateLocalQueue): its pending workloads move to
     * that queue. Returns whether any moved.
     */
    boolean moveLocalQueue(String localQueueKey, String from, String to) {
        PendingQueue source = queue(from);
        boolean moved = false;
        for (Workload w : source.all()) {
            if (w.localQueueKey().equals(localQueueKey)) {
                source.remove(w);
                queue(to).add(w);
                moved = true;
            }
        }
        return moved;
    }

    /**
     * Kueue's cqNamespaceHandler: the inadmissible workloads of the ClusterQueues that select a namespace now but did
     * not before its labels changed are tried again.
     */
    void namespaceLabelsChanged(Namespace before, Namespace after) {
        for (ClusterQueueSpec cq : configuration.clusterQueues().values()) {
            if (cq.namespaceSelector().matches(after.labels()) && !cq.namespaceSelector().matches(before.labels())) {
                queue(cq.name()).requeueInadmissible();
            }
        }
    }

    /** Records a pending decision; returns false when it repeats the last one reported for the workload. */
    boolean changed(Decision.Pending pending) {
        Decision.Pending last = lastReported.put(pending.workload().uid(), pending);
        return last == null || last.reason() != pending.reason() || !last.message().equals(pending.message())
                || last.inadmissible() != pending.inadmissible();
    }

    /** The last pending decision reported for a workload (why it waits), if any. */
    public Optional<Decision.Pending> lastPendingDecision(String uid) {
        return Optional.ofNullable(lastReported.get(uid));
    }

    /** Workloads whose LocalQueue does not exist, in arrival order. */
    public List<Workload> workloadsWithoutLocalQueue() {
        return List.copyOf(orphans.values());
    }

    void requeueInadmissible() {
        queues.values().forEach(PendingQueue::requeueInadmissible);
    }

    /** Pending workloads of a ClusterQueue in queue order; the index is Kueue's positionInClusterQueue. */
    public List<Workload> pendingInOrder(String clusterQueue) {
        PendingQueue q = queues.get(clusterQueue);
        return q == null ? List.of() : q.inOrder();
    }

    /** Pending workloads of a ClusterQueue in no particular order: cheaper than {@link #pendingInOrder} for a deep one. */
    public List<Workload> waitingIn(String clusterQueue) {
        PendingQueue q = queues.get(clusterQueue);
        return q == null ? List.of() : q.all();
    }

    /**
     * Pending workloads per ClusterQueue as Kueue's {@code kueue_pending_workloads} counts them:
     * {@code active} in the queue's heap, to be tried next, {@code inadmissible} parked until
     * something changes.
     */
    public Map<String, PendingCounts> pendingCounts() {
        Map<String, PendingCounts> counts = new TreeMap<>();
        queues.forEach((name, q) -> counts.put(name, new PendingCounts(q.activeCount(), q.inadmissibleCount())));
        return counts;
    }

    /** Active and inadmissible pending workloads of one ClusterQueue. */
    public record PendingCounts(int active, int inadmissible) {
        public PendingCounts plusInadmissible(int more) {
            return new PendingCounts(active, inadmissible + more);
        }
    }

    /**
     * How many pending workloads the next cycle may try (those not set aside as inadmissible). A cycle that admits,
     * preempts and evicts nothing and leaves this unchanged leaves the state as it found it: the next cycle would
     * decide the same.
     */
    public int activePendingCount() {
        int count = 0;
        for (PendingQueue q : queues.values()) {
            count += q.activeCount();
        }
        return count;
    }

    /** Pending, backing off and inactive workloads. */
    int count() {
        return pendingByUid.size() + backingOff.size() + inactive.size();
    }

    /**
     * Copies the queues of {@code clusterQueueNames} (inadmissible sets included) with the last pending decisions
     * of their workloads, and the backoffs of the LocalQueues {@code copy}'s configuration holds.
     */
    void copyInto(QueueManager copy, Collection<String> clusterQueueNames, ToDoubleFunction<String> score) {
        for (String cq : clusterQueueNames) {
            PendingQueue q = queues.get(cq);
            if (q == null) {
                continue;
            }
            PendingQueue copied = q.copy(score);
            copy.queues.put(cq, copied);
            for (Workload w : copied.all()) {
                copy.pendingByUid.put(w.uid(), w);
                Decision.Pending last = lastReported.get(w.uid());
                if (last != null) {
                    copy.lastReported.put(w.uid(), last);
                }
            }
        }
        backingOff.forEach((uid, b) -> {
            if (copy.configuration.localQueue(b.workload().localQueueKey()) != null) {
                copy.backingOff.put(uid, b);
            }
        });
    }
}
