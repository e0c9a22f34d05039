package dev.platform.agent;

import dev.platform.agent.cluster.Cluster;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * Health {@code informers}, part of the readiness group: a replica is ready once its watch
 * caches of nodes, pods and JobSets have synced. Before that its FULL report would tell the
 * scheduler that pools vanished, and a hand-over to it would not be warm.
 */
@Component
class InformersHealthIndicator extends AbstractHealthIndicator {

    private final Cluster cluster;

    InformersHealthIndicator(Cluster cluster) {
        super("informer sync check failed");
        this.cluster = cluster;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        if (cluster.hasSynced()) {
            builder.up();
        } else {
            builder.outOfService().withDetail("reason", "node, pod, JobSet and Job caches not synced yet");
        }
    }
}
