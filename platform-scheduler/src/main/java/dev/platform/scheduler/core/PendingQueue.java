package dev.platform.scheduler.core;


import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The pending workloads of one ClusterQueue (Kueue's queue/cluster_queue.go): an ordered heap of workloads to try
 * and the inadmissible set of BestEffortFIFO workloads that wait until something changes.
 */
final class PendingQueue {

    /** Queue order: higher priority first, then earlier queue timestamp (FIFO), then uid. */
    static final Comparator<Workload> ORDER = QueueOrder.of(Workload::priority, Workload::queuedAt, Workload::uid);

    private final TreeSet<Workload> active = new TreeSet<>(ORDER);
    private final Map<String, Workload> inadmissible = new HashMap<>();

    void add(Workload w) {
        active.add(w);
    }

    boolean remove(Workload w) {
        return active.remove(w) | inadmissible.remove(w.uid()) != null;
    }

    Workload head() {
        return active.isEmpty() ? null : active.first();
    }

    /** Active workloads after the head, in order. */
    Iterable<Workload> behindHead() {
        return active.isEmpty() ? List.of() : active.tailSet(active.first(), false);
    }

    void moveToInadmissible(Workload w) {
        if (active.remove(w)) {
            inadmissible.put(w.uid(), w);
        }
    }

    void moveAllToInadmissible() {
        for (Workload w : active) {
            inadmissible.put(w.uid(), w);
        }
        active.clear();
    }

    /** Something changed that may make inadmissible workloads admissible: try them again. */
    void requeueInadmissible() {
        active.addAll(inadmissible.values());
        inadmissible.clear();
    }

    /** Workloads the next cycle may try: all but the inadmissible set. */
    int activeCount() {
        return active.size();
    }

    int inadmissibleCount() {
        return inadmissible.size();
    }

    boolean isEmpty() {
        return active.isEmpty() && inadmissible.isEmpty();
    }

    /** Every pending workload in queue order (Kueue's visibility API order). */
    List<Workload> inOrder() {
        TreeSet<Workload> all = new TreeSet<>(ORDER);
        all.addAll(active);
        all.addAll(inadmissible.values());
        return new ArrayList<>(all);
    }

    /** An independent copy, inadmissible set included. */
    PendingQueue copy() {
        PendingQueue copy = new PendingQueue();
        copy.active.addAll(active);
        copy.inadmissible.putAll(inadmissible);
        return copy;
    }

    List<Workload> all() {
        List<Workload> out = new ArrayList<>(active);
        out.addAll(inadmissible.values());
        return out;
    }
}
