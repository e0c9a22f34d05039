package dev.platform.scheduler.core;

import dev.platform.scheduler.core.model.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * The pending workloads of one ClusterQueue (Kueue's queue/cluster_queue.go): an ordered heap of workloads to try
 * and the inadmissible set of BestEffortFIFO workloads that wait until something changes.
 * <p>
 * Under admission fair sharing the order starts with the usage of each workload's LocalQueue (lower first, Kueue's
 * queueOrderingFunc), then goes on as without it. The workloads are then kept per LocalQueue, and the LocalQueues by
 * their usage and their first workload: a change of one LocalQueue's usage moves one entry, not its workloads.
 */
final class PendingQueue {

    /** Queue order: higher priority first, then earlier queue timestamp (FIFO), then uid. */
    static final Comparator<Workload> ORDER = QueueOrder.of(Workload::priority, Workload::queuedAt, Workload::uid);

    private Active active;
    private final Map<String, Workload> inadmissible = new HashMap<>();

    /** Ordered by priority and queue time. */
    PendingQueue() {
        this.active = new ByPriority();
    }

    private PendingQueue(Active active) {
        this.active = active;
    }

    /**
     * Orders by LocalQueue usage first, read from {@code usage} (LocalQueue key to score), or by priority and queue
     * time only when {@code usage} is null. The workloads stay; only their order changes.
     */
    void orderBy(ToDoubleFunction<String> usage) {
        boolean byUsage = active instanceof ByUsage;
        if (usage == null && !byUsage) {
            return;
        }
        Active reordered = usage == null ? new ByPriority() : new ByUsage(usage);
        active.all().forEach(reordered::add);
        active = reordered;
    }

    /** The usage of a LocalQueue changed: its workloads take their new place. */
    void usageChanged(String localQueueKey) {
        active.usageChanged(localQueueKey);
    }

    /** The usage of every LocalQueue may have changed. */
    void usageChanged() {
        active.usageChanged();
    }

    void add(Workload w) {
        active.add(w);
    }

    boolean remove(Workload w) {
        return active.remove(w) | inadmissible.remove(w.uid()) != null;
    }

    Workload head() {
        return active.head();
    }

    /** Active workloads after the head, in order. */
    Iterable<Workload> behindHead() {
        return active.behindHead();
    }

    void moveToInadmissible(Workload w) {
        if (active.remove(w)) {
            inadmissible.put(w.uid(), w);
        }
    }

    void moveAllToInadmissible() {
        for (Workload w : active.all()) {
            inadmissible.put(w.uid(), w);
        }
        active.clear();
    }

    /** Something changed that may make inadmissible workloads admissible: try them again. */
    void requeueInadmissible() {
        inadmissible.values().forEach(active::add);
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
        return active.size() == 0 && inadmissible.isEmpty();
    }

    /** Every pending workload in queue order (Kueue's visibility API order). */
    List<Workload> inOrder() {
        List<Workload> all = all();
        all.sort(active.order());
        return all;
    }

    /** The workloads to try, in queue order: the inadmissible set left out. */
    List<Workload> activeInOrder() {
        List<Workload> workloads = active.all();
        workloads.sort(active.order());
        return workloads;
    }

    /** An independent copy, inadmissible set included, reading LocalQueue usage from {@code usage} if it orders by it. */
    PendingQueue copy(ToDoubleFunction<String> usage) {
        PendingQueue copy = new PendingQueue(active instanceof ByUsage ? new ByUsage(usage) : new ByPriority());
        active.all().forEach(copy.active::add);
        copy.inadmissible.putAll(inadmissible);
        return copy;
    }

    List<Workload> all() {
        List<Workload> out = new ArrayList<>(active.all());
        out.addAll(inadmissible.values());
        return out;
    }

    /** The workloads to try, in their order. */
    private interface Active {
        void add(Workload w);

        boolean remove(Workload w);

        Workload head();

        Iterable<Workload> behindHead();

        int size();

        List<Workload> all();

        void clear();

        Comparator<Workload> order();

        void usageChanged(String localQueueKey);

        void usageChanged();
    }

    private static final class ByPriority implements Active {
        private final TreeSet<Workload> workloads = new TreeSet<>(ORDER);

        @Override
        public void add(Workload w) {
            workloads.add(w);
        }

        @Override
        public boolean remove(Workload w) {
            return workloads.remove(w);
        }

        @Override
        public Workload head() {
            return workloads.isEmpty() ? null : workloads.first();
        }

        @Override
        public Iterable<Workload> behindHead() {
            return workloads.isEmpty() ? List.of() : workloads.tailSet(workloads.first(), false);
        }

        @Override
        public int size() {
            return workloads.size();
        }

        @Override
        public List<Workload> all() {
            return new ArrayList<>(workloads);
        }

        @Override
        public void clear() {
            workloads.clear();
        }

        @Override
        public Comparator<Workload> order() {
            return ORDER;
        }

        @Override
        public void usageChanged(String localQueueKey) {
        }

        @Override
        public void usageChanged() {
        }
    }

    /**
     * Kueue's order under admission fair sharing: the usage of the workload's LocalQueue (lower first; a LocalQueue
     * of weight 0 has infinite usage), then {@link #ORDER}. The head is the first workload of the LocalQueue whose
     * (usage, first workload) is least.
     */
    private static final class ByUsage implements Active {
        private static final Comparator<Head> HEADS = Comparator.comparingDouble(Head::usage)
                .thenComparing(Head::first, ORDER);

        private final ToDoubleFunction<String> usage;
        private final Map<String, TreeSet<Workload>> byLocalQueue = new HashMap<>();
        private final TreeSet<Head> heads = new TreeSet<>(HEADS);
        private final Map<String, Head> headOf = new HashMap<>();
        private int size;

        /** A LocalQueue's place: its usage when it was last placed and its first workload. */
        private record Head(String localQueue, double usage, Workload first) {
        }

        ByUsage(ToDoubleFunction<String> usage) {
            this.usage = usage;
        }

        @Override
        public void add(Workload w) {
            String key = w.localQueueKey();
            TreeSet<Workload> queue = byLocalQueue.computeIfAbsent(key, k -> new TreeSet<>(ORDER));
            if (queue.add(w)) {
                size++;
                if (queue.first() == w) {
                    place(key);
                }
            }
        }

        @Override
        public boolean remove(Workload w) {
            String key = w.localQueueKey();
            TreeSet<Workload> queue = byLocalQueue.get(key);
            if (queue == null) {
                return false;
            }
            boolean first = queue.first().uid().equals(w.uid());
            if (!queue.remove(w)) {
                return false;
            }
            size--;
            if (first) {
                place(key);
            }
            return true;
        }

        /** Puts a LocalQueue where its current usage and first workload belong. */
        private void place(String key) {
            Head old = headOf.remove(key);
            if (old != null) {
                heads.remove(old);
            }
            TreeSet<Workload> queue = byLocalQueue.get(key);
            if (queue == null || queue.isEmpty()) {
                byLocalQueue.remove(key);
                return;
            }
            Head head = new Head(key, usage.applyAsDouble(key), queue.first());
            heads.add(head);
            headOf.put(key, head);
        }

        @Override
        public Workload head() {
            return heads.isEmpty() ? null : heads.first().first();
        }

        @Override
        public Iterable<Workload> behindHead() {
            List<Workload> all = all();
            all.sort(order());
            return all.isEmpty() ? List.of() : all.subList(1, all.size());
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public List<Workload> all() {
            List<Workload> out = new ArrayList<>(size);
            byLocalQueue.values().forEach(out::addAll);
            return out;
        }

        @Override
        public void clear() {
            byLocalQueue.clear();
            heads.clear();
            headOf.clear();
            size = 0;
        }

        /**
         * The usage order of any pending workloads, inadmissible ones included: their LocalQueue's usage now, then
         * {@link #ORDER}.
         */
        @Override
        public Comparator<Workload> order() {
            Map<String, Double> now = new HashMap<>();
            return Comparator.<Workload>comparingDouble(w -> now.computeIfAbsent(w.localQueueKey(), usage::applyAsDouble))
                    .thenComparing(ORDER);
        }

        @Override
        public void usageChanged(String localQueueKey) {
            if (headOf.containsKey(localQueueKey)) {
                place(localQueueKey);
            }
        }

        @Override
        public void usageChanged() {
            List.copyOf(headOf.keySet()).forEach(this::place);
        }
    }
}
