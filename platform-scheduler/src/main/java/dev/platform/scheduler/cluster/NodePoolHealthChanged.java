package dev.platform.scheduler.cluster;

import dev.platform.api.agent.NodeHealthReason;
import dev.platform.scheduler.core.placement.NodePool;

import java.util.List;

/**
 * Published after the commit of a report that changed a node pool's health: the scheduling loop takes
 * a turn (Hotswap detection, placement on a healed pool). {@code oldHealth} is null for a pool seen for the first time, {@code newHealth} null for a
 * pool the cluster no longer has; {@code reasons} are the agent's.
 */
public record NodePoolHealthChanged(String cluster, String pool, NodePool.Health oldHealth, NodePool.Health newHealth,
                                    List<NodeHealthReason> reasons) {

    public NodePoolHealthChanged {
        reasons = List.copyOf(reasons);
    }
}
