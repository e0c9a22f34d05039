package dev.platform.scheduler.cluster;

import dev.platform.api.agent.CommandType;
import dev.platform.scheduler.cluster.AgentCommandStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import org.springframework.stereotype.Component;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Taking quota away from admitted workloads, in the caller's decision transaction: preemption
 * victims of a cycle or of a hotswap, and workloads drained by a stop policy. The workload
 * transition requeues each at its original queue timestamp with its conditions; a STOP command
 * takes its pods out of its cluster (the agent's evictions honour disruption budgets).
 */
@Component
public class Evictions {

    private final WorkloadTransitions transitions;
    private final AgentCommandStore commands;

    public Evictions(WorkloadTransitions transitions, AgentCommandStore commands) {
        this.transitions = transitions;
        this.commands = commands;
    }

    /** Evicts those still at their expected version; returns the new version of each eviction that landed. */
    public Map<String, Long> evict(List<WorkloadTransitions.Eviction> evictions, Instant now) {
        Map<String, Long> landed = new HashMap<>();
        for (WorkloadTransitions.Released r : transitions.evict(evictions, now)) {
            landed.put(r.uid().toString(), r.version());
            if (r.cluster() != null) {
                commands.enqueue(r.cluster(), CommandType.STOP, r.uid(), r.namespace(), r.name(), null, null);
            }
        }
        return landed;
    }
}
