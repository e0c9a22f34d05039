package dev.platform.scheduler.console;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.QueueUsageHistory;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.web.console.LocalQueueView;
import dev.platform.web.team.TeamQueries;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A namespace's quota view in eight statements (LocalQueues, ClusterQueues, usage, a page of
 * workloads), and its usage history in two.
 */
@Component
class ConsoleTeams implements TeamQueries {

    private final ConfigStore config;
    private final ConsoleViews views;
    private final WorkloadStore workloads;
    private final WorkloadStatuses statuses;
    private final QueueUsageHistory history;
    private final Clock clock;

    ConsoleTeams(ConfigStore config, ConsoleViews views, WorkloadStore workloads, WorkloadStatuses statuses,
                 QueueUsageHistory history, Clock clock) {
        this.history = history;
        this.clock = clock;
        this.config = config;
        this.views = views;
        this.workloads = workloads;
        this.statuses = statuses;
    }

    @Override
    public List<String> namespaces() {
        return config.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                .map(LocalQueueManifest::namespace).distinct().sorted().toList();
    }

    @Override
    public List<UsageSeries> usageHistory(String namespace) {
        Set<String> queues = config.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                .filter(l -> l.namespace().equals(namespace)).map(LocalQueueManifest::clusterQueue)
                .collect(Collectors.toSet());
        Map<String, List<QueueUsageHistory.Sample>> bySeries = new LinkedHashMap<>();
        for (QueueUsageHistory.Sample s : history.since(queues, clock.instant().minus(Duration.ofDays(1)))) {
            bySeries.computeIfAbsent(s.clusterQueue() + "\u0000" + s.flavor() + "\u0000" + s.resource(),
                    k -> new ArrayList<>()).add(s);
        }
        return bySeries.values().stream().map(samples -> {
            QueueUsageHistory.Sample last = samples.get(samples.size() - 1);
            return new UsageSeries(last.clusterQueue(), last.flavor(), last.resource(),
                    last.nominalQuota().stripTrailingZeros().toPlainString(),
                    samples.stream().map(s -> new UsagePoint(s.at(), s.used().doubleValue(),
                            s.nominalQuota().doubleValue())).toList());
        }).toList();
    }

    @Override
    public TeamView team(String namespace, int workloadLimit) {
        List<LocalQueueView> localQueues = config.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                .filter(l -> l.namespace().equals(namespace))
                .map(l -> new LocalQueueView(l.namespace(), l.name(), l.clusterQueue(), l.stopPolicy().name()))
                .toList();
        Set<String> used = localQueues.stream().map(LocalQueueView::clusterQueue).collect(Collectors.toSet());
        List<ClusterQueueManifest> queues = used.isEmpty() ? List.of()
                : config.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class).stream()
                        .filter(q -> used.contains(q.name())).toList();
        List<WorkloadRow> rows = workloads.list(namespace, null, null, null, workloadLimit + 1);
        boolean more = rows.size() > workloadLimit;
        List<WorkloadRow> page = more ? rows.subList(0, workloadLimit) : rows;
        return new TeamView(namespace, localQueues, views.usageOf(queues),
                statuses.of(page).stream().map(ConsoleViews::line).toList(), more);
    }
}
