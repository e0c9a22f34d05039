package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.TeamManifest;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.LocalQueueUsageStore;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.config.QueueUsageHistory;
import dev.platform.scheduler.core.LocalQueueUsage;
import dev.platform.scheduler.core.Quantities;
import dev.platform.scheduler.preemption.LostWorkLedger;
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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A team's quota view (its namespaces' LocalQueues, their ClusterQueues and usage, a page of its
 * workloads) in a fixed number of statements, its usage history in two, and its lost work in two (the team, the sums).
 */
@Component
class ConsoleTeams implements TeamQueries {

    private final ConfigStore config;
    private final ConsoleViews views;
    private final WorkloadStore workloads;
    private final WorkloadStatuses statuses;
    private final QueueUsageHistory history;
    private final Clock clock;
    private final LocalQueueUsageStore localQueueUsage;
    private final LostWorkLedger lostWork;

    ConsoleTeams(ConfigStore config, ConsoleViews views, WorkloadStore workloads, WorkloadStatuses statuses,
                 QueueUsageHistory history, Clock clock, LocalQueueUsageStore localQueueUsage,
                 LostWorkLedger lostWork) {
        this.lostWork = lostWork;
        this.history = history;
        this.localQueueUsage = localQueueUsage;
        this.clock = clock;
        this.config = config;
        this.views = views;
        this.workloads = workloads;
        this.statuses = statuses;
    }

    @Override
    public List<String> teams(Caller caller) {
        if (caller.readsEverything()) {
            return config.list(Kind.TEAM, TeamManifest.class).stream().map(TeamManifest::name).toList();
        }
        return caller.teams().stream().filter(m -> caller.leadsTeam(m.team())).map(Caller.Membership::team)
                .sorted().toList();
    }

    @Override
    public List<UsageSeries> usageHistory(String team) {
        Set<String> queues = localQueuesOf(find(team).map(TeamManifest::namespaces).orElse(List.of())).stream()
                .map(LocalQueueView::clusterQueue).collect(Collectors.toSet());
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
    public List<LostWorkTotal> lostWork(String team) {
        List<String> namespaces = find(team).map(TeamManifest::namespaces).orElse(List.of());
        return lostWork.totals(namespaces, clock.instant()).stream()
                .map(t -> new LostWorkTotal(t.resource(), t.lastDay(), t.lastWeek())).toList();
    }

    @Override
    public Optional<TeamView> team(String name, int workloadLimit) {
        return find(name).map(team -> {
            List<LocalQueueView> localQueues = localQueuesOf(team.namespaces());
            Set<String> used = localQueues.stream().map(LocalQueueView::clusterQueue).collect(Collectors.toSet());
            List<ClusterQueueManifest> queues = used.isEmpty() ? List.of()
                    : config.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class).stream()
                            .filter(q -> used.contains(q.name())).toList();
            List<WorkloadRow> rows = team.namespaces().isEmpty() ? List.of()
                    : workloads.list(team.namespaces(), null, null, null, workloadLimit + 1);
            boolean more = rows.size() > workloadLimit;
            List<WorkloadRow> page = more ? rows.subList(0, workloadLimit) : rows;
            return new TeamView(team.name(), team.namespaces(), localQueues, views.usageOf(queues),
                    statuses.of(page).stream().map(ConsoleViews::line).toList(), more);
        });
    }

    private Optional<TeamManifest> find(String team) {
        return config.find(Kind.TEAM, ObjectKey.cluster(team), TeamManifest.class);
    }

    /** The team's LocalQueues with the recent usage admission fair sharing recorded for them. */
    private List<LocalQueueView> localQueuesOf(List<String> namespaces) {
        Set<String> owned = Set.copyOf(namespaces);
        List<LocalQueueManifest> queues = config.list(Kind.LOCAL_QUEUE, LocalQueueManifest.class).stream()
                .filter(l -> owned.contains(l.namespace())).toList();
        Map<String, LocalQueueUsage> usages = queues.isEmpty() ? Map.of() : localQueueUsage.all().stream()
                .filter(u -> owned.contains(u.namespace()))
                .collect(Collectors.toMap(LocalQueueUsage::key, u -> u));
        return queues.stream().map(l -> localQueue(l, usages.get(l.namespace() + "/" + l.name()))).toList();
    }

    private static LocalQueueView localQueue(LocalQueueManifest l, LocalQueueUsage usage) {
        if (usage == null) {
            return new LocalQueueView(l.namespace(), l.name(), l.clusterQueue(), l.stopPolicy().name());
        }
        String consumed = usage.consumedResources().entrySet().stream()
                .map(e -> e.getKey() + " " + Quantities.format(Math.round(e.getValue())))
                .collect(Collectors.joining(", "));
        return new LocalQueueView(l.namespace(), l.name(), l.clusterQueue(), l.stopPolicy().name(),
                l.fairSharing().weight().toString(), consumed.isEmpty() ? "nothing" : consumed, usage.lastUpdate());
    }
}
