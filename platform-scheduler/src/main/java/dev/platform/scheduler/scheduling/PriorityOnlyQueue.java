package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadState;

import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The workloads without a queue name that wait for node pools, and whether trying them again can
 * change anything. Owned by the scheduling loop thread.
 */
final class PriorityOnlyQueue {

    private final Set<String> waiting = new HashSet<>();
    /** The placement generation at the last turn that placed nothing, while nobody new arrived since. */
    private long fruitlessAt = -1;

    /** Follows a priority-only workload's row from the change feed: only active Pending ones wait. */
    void track(WorkloadRow row) {
        String uid = row.uid().toString();
        if (row.state() == WorkloadState.Pending && row.lifecycle().active()) {
            requeue(uid);
        } else {
            waiting.remove(uid);
        }
    }

    /** Back to waiting, after an eviction or as a new arrival. */
    void requeue(String uid) {
        waiting.add(uid);
        fruitlessAt = -1;
    }

    /** A PriorityClass may have changed: everyone is worth another try. */
    void retry() {
        fruitlessAt = -1;
    }

    void placed(String uid) {
        waiting.remove(uid);
    }

    Set<String> waiting() {
        return Collections.unmodifiableSet(waiting);
    }

    /** Whether a turn could place anyone: someone waits, and pools changed since the last turn that placed no one. */
    boolean worthTrying(long placementGeneration) {
        return !waiting.isEmpty() && fruitlessAt != placementGeneration;
    }

    /** A turn placed no one although every waiting row was current: not again until the pools change. */
    void fruitless(long placementGeneration) {
        fruitlessAt = placementGeneration;
    }
}
