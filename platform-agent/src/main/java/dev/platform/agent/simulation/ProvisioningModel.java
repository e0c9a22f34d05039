package dev.platform.agent.simulation;

import java.time.Duration;
import java.util.Map;

/**
 * How the simulated cluster autoscaler answers the ProvisioningRequests of one class: a request is Accepted at once
 * and provisioned {@code delay} later, as new node pools (a slice's hosts each, for a TPU pod template), while the
 * pools it has provisioned and not released stay within {@code maxNodePools}. Beyond that a {@code queued} class
 * keeps the request waiting until capacity is released (GKE's queued provisioning); any other fails it
 * (best-effort atomic scale-up: all or nothing, now).
 */
public record ProvisioningModel(Duration delay, int maxNodePools, boolean queued) {

    public static final String QUEUED_PROVISIONING = "queued-provisioning.gke.io";
    public static final String BEST_EFFORT_ATOMIC = "best-effort-atomic-scale-up.autoscaling.x-k8s.io";

    public ProvisioningModel {
        if (delay.isNegative() || maxNodePools < 0) {
            throw new IllegalArgumentException("a provisioning model needs a delay and a pool limit of 0 or more");
        }
    }

    /**
     * The demo's classes: queued provisioning takes 5 s and creates up to four slices; flex-start's best-effort
     * atomic scale-up takes 2 s and up to two. A request of another class is never answered, as a cluster
     * autoscaler ignores a class it does not serve.
     */
    public static Map<String, ProvisioningModel> demo() {
        return Map.of(QUEUED_PROVISIONING, new ProvisioningModel(Duration.ofSeconds(5), 4, true),
                BEST_EFFORT_ATOMIC, new ProvisioningModel(Duration.ofSeconds(2), 2, false));
    }
}
