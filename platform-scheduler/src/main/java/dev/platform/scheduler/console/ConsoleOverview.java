package dev.platform.scheduler.console;

import dev.platform.api.identity.Caller;
import dev.platform.web.console.PreemptionView;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.preemption.PreemptionFilter;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.web.console.QueueUsageView;
import dev.platform.web.overview.OverviewQueries;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The overview in six statements: queues, cohorts, flavor check, usage, counts, latest preemptions. A
 * team member sees the queues their teams' LocalQueues point to and the cohorts holding them.
 */
@Component
class ConsoleOverview implements OverviewQueries {

    private final ConfigStore config;
    private final ConsoleViews views;
    private final PreemptionStore preemptions;

    ConsoleOverview(ConfigStore config, ConsoleViews views, PreemptionStore preemptions) {
        this.config = config;
        this.views = views;
        this.preemptions = preemptions;
    }

    @Override
    public Overview overview(Caller caller, int latestPreemptions) {
        List<QueueUsageView> queues = views.usageOf(views.visibleClusterQueues(caller));
        Map<String, String> parents = new TreeMap<>();
        config.list(Kind.COHORT, CohortManifest.class).forEach(c -> parents.put(c.name(), c.parentName()));
        Map<String, List<QueueUsageView>> members = new TreeMap<>();
        if (caller.readsEverything()) {
            parents.keySet().forEach(name -> members.put(name, new ArrayList<>()));
        }
        List<QueueUsageView> standalone = new ArrayList<>();
        for (QueueUsageView queue : queues) {
            if (queue.cohort() == null) {
                standalone.add(queue);
            } else {
                members.computeIfAbsent(queue.cohort(), k -> new ArrayList<>()).add(queue);
            }
        }
        List<CohortUsage> cohorts = members.entrySet().stream()
                .map(e -> new CohortUsage(e.getKey(), parents.get(e.getKey()), List.copyOf(e.getValue())))
                .toList();
        List<PreemptionView> latest = !caller.leadsAnyTeam() ? List.of()
                : preemptions.page(PreemptionFilter.of(caller, null, null, null, null, null), null, latestPreemptions)
                        .stream().map(e -> ConsoleViews.preemption(e.seenBy(caller))).toList();
        return new Overview(cohorts, standalone, latest);
    }
}
