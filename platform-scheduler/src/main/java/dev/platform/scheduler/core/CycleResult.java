package dev.platform.scheduler.core;

import java.util.List;

/**
 * Everything one admission cycle decided, each list in the order the decisions were taken. Pending decisions are
 * reported when a workload's reason or message changes, so a steady backlog costs nothing per cycle.
 */
public record CycleResult(List<Decision.Admit> admitted, List<Decision.Preempt> preempted,
                          List<Decision.Pending> pending, List<Decision.Evict> evicted) {

    public CycleResult {
        admitted = List.copyOf(admitted);
        preempted = List.copyOf(preempted);
        pending = List.copyOf(pending);
        evicted = List.copyOf(evicted);
    }

    public boolean isEmpty() {
        return admitted.isEmpty() && preempted.isEmpty() && pending.isEmpty() && evicted.isEmpty();
    }
}
