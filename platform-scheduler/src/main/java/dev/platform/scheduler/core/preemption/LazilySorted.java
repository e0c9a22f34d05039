package dev.platform.scheduler.core.preemption;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A list read in sorted order that only sorts as far as it is read: a heap built in O(n), popped on demand.
 * Greedy victim search usually stops after a handful of candidates out of thousands.
 */
final class LazilySorted<T> {

    private final PriorityQueue<T> heap;
    private final List<T> sorted = new ArrayList<>();

    LazilySorted(Collection<T> items, Comparator<? super T> order) {
        this.heap = new PriorityQueue<>(Math.max(1, items.size()), order);
        this.heap.addAll(items);
    }

    /** The i-th item in order, or null past the end. */
    T get(int i) {
        while (sorted.size() <= i && !heap.isEmpty()) {
            sorted.add(heap.poll());
        }
        return i < sorted.size() ? sorted.get(i) : null;
    }
}
