package dev.platform.api.agent;

import java.util.List;

/**
 * A node pool (GKE label cloud.google.com/gke-nodepool): for a TPU multi-host slice the unit of
 * placement. {@code state} is the worst state of its nodes; {@code reasons} the union of theirs.
 * Accelerator and topology are null for CPU pools.
 */
public record NodePoolReport(
        String name,
        String accelerator,
        String topology,
        HealthState state,
        List<NodeHealthReason> reasons,
        List<NodeReport> nodes) {

    public NodePoolReport {
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }
}
