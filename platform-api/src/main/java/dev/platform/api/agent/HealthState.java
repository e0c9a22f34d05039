package dev.platform.api.agent;

/**
 * Health of a node or node pool as the agent sees it. Degraded still runs work (maintenance is
 * only scheduled); Unhealthy does not, and for a multi-host pool one Unhealthy node is enough.
 * Declared from best to worst: a pool's state is the greatest of its nodes'.
 */
public enum HealthState {
    HEALTHY,
    DEGRADED,
    UNHEALTHY
}
