package dev.platform.scheduler.cluster;

import dev.platform.api.agent.HealthState;

/**
 * Health of a node or node pool as stored (the names are the database's values). Unknown is
 * never reported by an agent: it is what a stale cluster's pools are shown as.
 */
public enum PoolHealth {
    Healthy,
    Degraded,
    Unhealthy,
    Unknown;

    public static PoolHealth of(HealthState state) {
        return switch (state) {
            case HEALTHY -> Healthy;
            case DEGRADED -> Degraded;
            case UNHEALTHY -> Unhealthy;
        };
    }
}
