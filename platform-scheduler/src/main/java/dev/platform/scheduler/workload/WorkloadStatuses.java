package dev.platform.scheduler.workload;

import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/** Builds status resources for a page of workloads with a fixed number of statements. */
@Component
public class WorkloadStatuses {

    private final WorkloadStore store;

    public WorkloadStatuses(WorkloadStore store) {
        this.store = store;
    }

    public WorkloadStatus of(WorkloadRow row) {
        return of(List.of(row)).get(0);
    }

    public List<WorkloadStatus> of(List<WorkloadRow> rows) {
        List<UUID> uids = rows.stream().map(WorkloadRow::uid).toList();
        Map<UUID, List<WorkloadStatus.Condition>> conditions = store.conditions(uids);
        List<UUID> pending = rows.stream().filter(r -> r.state() == WorkloadState.Pending && r.lifecycle().active())
                .map(WorkloadRow::uid).toList();
        Map<UUID, int[]> positions = store.positions(pending);
        Map<UUID, WorkloadStatus.Forecast> forecasts = store.forecasts(pending);
        Map<UUID, Integer> boosts = store.priorityBoosts(uids);
        return rows.stream().map(row -> {
            int[] position = positions.get(row.uid());
            int boost = boosts.getOrDefault(row.uid(), 0);
            return new WorkloadStatus(row.namespace(), row.name(), row.kind(), row.uid().toString(), row.queueName(),
                    row.clusterQueue(), row.priorityClassName(), row.priority(), row.state(),
                    row.podSets().stream().map(WorkloadStatuses::podSet).toList(),
                    row.admission() == null ? null : row.admission().toStatus(),
                    conditions.getOrDefault(row.uid(), List.of()),
                    position == null ? null : position[0],
                    position == null ? null : position[1],
                    row.state() == WorkloadState.Pending && row.pendingReason() != null
                            ? new WorkloadStatus.PendingReason(row.pendingReason(), row.pendingMessage()) : null,
                    row.createdAt(), row.admittedAt(), forecasts.get(row.uid()), row.lifecycle().active(),
                    requeueState(row.lifecycle()), row.submittedBy(), row.priority() - boost, boost);
        }).toList();
    }

    private static WorkloadStatus.RequeueState requeueState(WorkloadRow.Lifecycle lifecycle) {
        return lifecycle.requeueCount() == 0 && lifecycle.requeueAt() == null ? null
                : new WorkloadStatus.RequeueState(lifecycle.requeueCount(), lifecycle.requeueAt());
    }

    private static WorkloadStatus.PodSet podSet(PodSetSpec spec) {
        Map<String, String> requests = spec.requests().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> text(e.getValue()), (a, b) -> a, TreeMap::new));
        return new WorkloadStatus.PodSet(spec.name(), spec.count(), requests);
    }

    private static String text(Quantity quantity) {
        return quantity.toString();
    }
}
