package dev.platform.api.agent;

import java.util.List;

/**
 * One node of a pool. Chips are {@code google.com/tpu}; zero on CPU nodes.
 * {@code scheduledMaintenance} is the raw value of cloud.google.com/scheduled-maintenance-time, or null.
 */
public record NodeReport(
        String name,
        HealthState state,
        List<NodeHealthReason> reasons,
        int chipCapacity,
        int chipAllocatable,
        String scheduledMaintenance) {

    public NodeReport {
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }
}
