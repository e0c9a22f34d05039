package dev.platform.scheduler.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A workload as the core sees it. {@code queuedAt} orders FIFO (creation time, or the time it was last evicted
 * and requeued, as Kueue's queue-order timestamp). {@code priorityClassName} (null when none) and
 * {@code maximumExecutionTime} (Kueue's spec.maximumExecutionTimeSeconds, null when unlimited) play no part in
 * admission; the forecast reads them to tell how long the workload will hold its quota.
 */
public record Workload(String uid, String namespace, String name, String localQueue, int priority,
                       Instant queuedAt, List<PodSet> podSets, String priorityClassName,
                       Duration maximumExecutionTime) {

    public Workload {
        podSets = List.copyOf(podSets);
    }

    /** A workload without priority class name or execution time limit. */
    public Workload(String uid, String namespace, String name, String localQueue, int priority, Instant queuedAt,
                    List<PodSet> podSets) {
        this(uid, namespace, name, localQueue, priority, queuedAt, podSets, null, null);
    }

    public String localQueueKey() {
        return namespace + "/" + localQueue;
    }

    public boolean allowsPartialAdmission() {
        return podSets.stream().anyMatch(PodSet::allowsPartialAdmission);
    }

    /** The same workload queued again at {@code at}. */
    public Workload requeuedAt(Instant at) {
        return new Workload(uid, namespace, name, localQueue, priority, at, podSets, priorityClassName,
                maximumExecutionTime);
    }

    /** The same workload with another priority (its priority class changed). */
    public Workload withPriority(int newPriority) {
        return new Workload(uid, namespace, name, localQueue, newPriority, queuedAt, podSets, priorityClassName,
                maximumExecutionTime);
    }

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
