package dev.platform.scheduler.workload;

import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.core.admissioncheck.AdmissionCheckState;
import org.springframework.stereotype.Component;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/** Builds status resources for a page of workloads with a fixed number of statements. */
@Component
public class WorkloadStatuses {

    /** The pending reason of a workload whose quota is reserved while a check is not Ready yet. */
    static final WorkloadStatus.PendingReason WAITING_FOR_CHECKS =
            new WorkloadStatus.PendingReason("WaitingForAdmissionChecks", "waiting for admission checks");

    private final WorkloadStore store;
    private final AdmissionCheckStates checks;

    public WorkloadStatuses(WorkloadStore store, AdmissionCheckStates checks) {
        this.store = store;
        this.checks = checks;
    }

    public WorkloadStatus of(WorkloadRow row) {
        return of(List.of(row)).get(0);
    }

    public List<WorkloadStatus> of(List<WorkloadRow> rows) {
        List<UUID> uids = rows.stream().map(WorkloadRow::uid).toList();
        List<UUID> pending = waitingIn(rows);
        return withChecks(assemble(rows, store.conditions(uids), store.positions(pending), store.forecasts(pending),
                store.priorityBoosts(uids)), rows);
    }

    /**
     * The statuses as far as a list's columns read them (Kueue's conditions, admission, pod sets): without the
     * platform's positions, forecasts, priority boosts and admission checks, whose statements a page of a
     * {@code kubectl get} would otherwise run for nothing.
     */
    public List<WorkloadStatus> forColumns(List<WorkloadRow> rows) {
        return assemble(rows, store.conditions(rows.stream().map(WorkloadRow::uid).toList()), Map.of(), Map.of(),
                Map.of());
    }

    /**
     * The statuses with Kueue's admissionChecks of those that have any; those holding quota while a check is not
     * Ready say they wait for their checks.
     */
    private List<WorkloadStatus> withChecks(List<WorkloadStatus> statuses, List<WorkloadRow> rows) {
        List<UUID> uids = rows.stream().map(WorkloadRow::uid).toList();
        Map<UUID, List<AdmissionCheckState>> byUid = checks.checks(uids);
        if (byUid.isEmpty()) {
            return statuses;
        }
        java.util.Set<UUID> waiting = checks.awaitingChecks(byUid.keySet());
        List<WorkloadStatus> out = new java.util.ArrayList<>(statuses.size());
        for (int i = 0; i < statuses.size(); i++) {
            WorkloadStatus s = statuses.get(i);
            UUID uid = rows.get(i).uid();
            List<AdmissionCheckState> own = byUid.get(uid);
            if (own == null) {
                out.add(s);
                continue;
            }
            boolean waits = waiting.contains(uid) && s.state().holdsQuota();
            out.add(new WorkloadStatus(s.namespace(), s.name(), s.kind(), s.uid(), s.queueName(), s.clusterQueue(),
                    s.priorityClassName(), s.priority(), s.state(), s.podSets(), s.admission(), s.conditions(),
                    s.positionInClusterQueue(), s.positionInLocalQueue(), waits ? WAITING_FOR_CHECKS : s.pendingReason(),
                    s.createdAt(), waits ? null : s.admittedAt(), s.forecast(), s.active(), s.requeueState(),
                    s.submittedBy(), s.basePriority(), s.priorityBoost(), own.stream()
                    .map(c -> new WorkloadStatus.AdmissionCheck(c.name(), c.state().name(), c.message(),
                            c.lastTransitionTime())).toList()));
        }
        return out;
    }

    /**
     * The statuses of workloads just created, as their commit left them, with one statement (their places in their
     * queues): a new workload's only condition is its first timeline entry, it has no forecast yet, and its priority
     * boost is its manifest's annotation, given with each row.
     */
    public List<WorkloadStatus> ofCreated(List<Created> created) {
        List<WorkloadRow> rows = created.stream().map(Created::row).toList();
        Map<UUID, List<WorkloadStatus.Condition>> conditions = new HashMap<>();
        Map<UUID, Integer> boosts = new HashMap<>();
        for (Created c : created) {
            WorkloadRow row = c.row();
            conditions.put(row.uid(), List.of(WorkloadTransitions.firstCondition(row.pendingReason(),
                    row.pendingMessage(), row.createdAt())));
            boosts.put(row.uid(), PreemptionAnnotations.priorityBoost(c.annotations()));
        }
        return assemble(rows, conditions, store.positions(waitingIn(rows)), Map.of(), boosts);
    }

    /** A workload this transaction created, with its manifest's annotations. */
    public record Created(WorkloadRow row, Map<String, String> annotations) {
    }

    /** The workloads among {@code rows} that wait in a queue, and so have a place in it and maybe a forecast. */
    private static List<UUID> waitingIn(List<WorkloadRow> rows) {
        return rows.stream().filter(r -> r.state() == WorkloadState.Pending && r.lifecycle().active())
                .map(WorkloadRow::uid).toList();
    }

    private static List<WorkloadStatus> assemble(List<WorkloadRow> rows,
                                                 Map<UUID, List<WorkloadStatus.Condition>> conditions,
                                                 Map<UUID, WorkloadStore.Positions> positions,
                                                 Map<UUID, WorkloadStatus.Forecast> forecasts,
                                                 Map<UUID, Integer> boosts) {
        return rows.stream().map(row -> {
            WorkloadStore.Positions position = positions.get(row.uid());
            int boost = boosts.getOrDefault(row.uid(), 0);
            return new WorkloadStatus(row.namespace(), row.name(), row.kind(), row.uid().toString(), row.queueName(),
                    row.clusterQueue(), row.priorityClassName(), row.priority(), row.state(),
                    row.podSets().stream().map(WorkloadStatuses::podSet).toList(),
                    row.admission() == null ? null : row.admission().toStatus(),
                    conditions.getOrDefault(row.uid(), List.of()),
                    position == null ? null : position.inClusterQueue(),
                    position == null ? null : position.inLocalQueue(),
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
