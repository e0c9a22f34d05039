package dev.platform.scheduler.config;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.Quantity;
import dev.platform.web.overview.ConsoleQueries;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;

/** The console's read port over the configuration tables. */
@Component
class ConsoleConfigurationQueries implements ConsoleQueries {

    private final ConfigStore store;

    ConsoleConfigurationQueries(ConfigStore store) {
        this.store = store;
    }

    @Override
    public List<ClusterQueueSummary> clusterQueues() {
        Map<String, List<String>> missing = store.missingFlavorsByClusterQueue();
        return store.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class).stream()
                .map(q -> {
                    ClusterQueueStatus status = ClusterQueueStatus.of(q.stopPolicy().name(),
                            missing.getOrDefault(q.name(), List.of()));
                    List<QuotaLine> quotas = q.resourceGroups().stream()
                            .flatMap(g -> g.flavors().stream())
                            .flatMap(f -> f.resources().stream().map(r -> new QuotaLine(f.name(), r.name(),
                                    r.nominalQuota().toString(), text(r.borrowingLimit()), text(r.lendingLimit()))))
                            .toList();
                    return new ClusterQueueSummary(q.name(), q.cohort(), q.queueingStrategy().name(),
                            status.active(), status.reason(), quotas);
                })
                .toList();
    }

    private static String text(Quantity quantity) {
        return quantity == null ? null : quantity.toString();
    }
}
