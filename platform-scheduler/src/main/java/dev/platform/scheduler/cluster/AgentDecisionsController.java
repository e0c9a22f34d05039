package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentDecision;
import dev.platform.api.agent.AgentDecisions;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.web.ClusterNames;
import dev.platform.scheduler.workload.WorkloadOrigins;
import dev.platform.scheduler.workload.WorkloadOrigins.ClusterEntry;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The platform's decisions about a cluster's workloads, for its agent to write as Events on the JobSets there
 * (docs/agent.md); authenticated as the other agent endpoints, for the token's cluster only.
 */
@RestController
class AgentDecisionsController {

    private final WorkloadOrigins origins;
    private final WorkloadStore workloads;
    private final WorkloadStatuses statuses;
    private final PreemptionStore preemptions;

    AgentDecisionsController(WorkloadOrigins origins, WorkloadStore workloads, WorkloadStatuses statuses,
                             PreemptionStore preemptions) {
        this.origins = origins;
        this.workloads = workloads;
        this.statuses = statuses;
        this.preemptions = preemptions;
    }

    @GetMapping(path = AgentProtocol.DECISIONS_PATH, produces = "application/json")
    AgentDecisions decisions(@PathVariable String cluster,
                             @RequestParam(name = AgentProtocol.AFTER_PARAM, required = false) Long after) {
        ClusterNames.require(cluster);
        if (after == null) {
            // where the feed stands: an agent that begins to lead writes what is decided from now on
            return new AgentDecisions(List.of(), origins.latestId(), false);
        }
        // read first: the other clusters' entries up to it need not be scanned again by the next question
        long latest = origins.latestId();
        List<ClusterEntry> entries = origins.timeline(cluster, after, AgentProtocol.MAX_DECISIONS_PER_ANSWER);
        List<WorkloadRow> rows = List.copyOf(workloads.findAll(entries.stream().map(ClusterEntry::workloadUid)
                .collect(Collectors.toSet())).values());
        List<WorkloadStatus> current = statuses.of(rows);
        Map<UUID, WorkloadStatus> byUid = new HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            byUid.put(rows.get(i).uid(), current.get(i));
        }
        List<AgentDecision> items = new ArrayList<>();
        for (ClusterEntry entry : entries) {
            PreemptionEvent preemption = "Preempted".equals(entry.type()) ? preemptionOf(entry) : null;
            DecisionEvents.of(entry, byUid.get(entry.workloadUid()), preemption).ifPresent(w -> items.add(new AgentDecision(
                    entry.id(), entry.at(), entry.workloadUid().toString(), entry.namespace(), entry.name(),
                    entry.jobSetUid(), w.type(), w.reason(), w.message())));
        }
        boolean more = entries.size() == AgentProtocol.MAX_DECISIONS_PER_ANSWER;
        long last = entries.isEmpty() ? after : entries.get(entries.size() - 1).id();
        return new AgentDecisions(items, more ? last : Math.max(last, latest), more);
    }

    /** The audit record of the preemption a Preempted entry tells of: the workload's, as victim, nearest in time. */
    private PreemptionEvent preemptionOf(ClusterEntry entry) {
        return preemptions.involving(entry.workloadUid(), 20).stream()
                .filter(p -> entry.workloadUid().equals(p.victim().uid()))
                .min(Comparator.comparing(p -> Duration.between(p.at(), entry.at()).abs()))
                .orElse(null);
    }
}
