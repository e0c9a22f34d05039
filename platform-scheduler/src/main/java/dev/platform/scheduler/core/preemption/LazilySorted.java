package dev.platform.scheduler.core.preemption;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A list read in sorted order that only sorts as far as it is read: a binary heap built bottom-up in O(n), popped
 * on demand. Greedy victim search usually stops after a handful of candidates out of thousands.
 */
final class LazilySorted<T> {

    private final Object[] heap;
    private final Comparator<? super T> order;
    private int size;
    private final List<T> sorted = new ArrayList<>();

    LazilySorted(Collection<T> items, Comparator<? super T> order) {
        this.heap = items.toArray();
        this.order = order;
        this.size = heap.length;
        for (int i = size / 2 - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    /** The i-th item in order, or null past the end. */
    T get(int i) {
        while (sorted.size() <= i && size > 0) {
            sorted.add(poll());
        }
        return i < sorted.size() ? sorted.get(i) : null;
    }

    @SuppressWarnings("unchecked")
    private T poll() {
        T top = (T) heap[0];
        heap[0] = heap[--size];
        heap[size] = null;
        siftDown(0);
        return top;
    }

    @SuppressWarnings("unchecked")
    private void siftDown(int i) {
        while (true) {
            int smallest = i;
            int left = 2 * i + 1;
            int right = left + 1;
            if (left < size && order.compare((T) heap[left], (T) heap[smallest]) < 0) {
                smallest = left;
            }
            if (right < size && order.compare((T) heap[right], (T) heap[smallest]) < 0) {
                smallest = right;
            }
            if (smallest == i) {
                return;
            }
            Object tmp = heap[i];
            heap[i] = heap[smallest];
            heap[smallest] = tmp;
            i = smallest;
        }
    }
}
