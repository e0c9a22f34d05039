package dev.platform.scheduler.console;

import dev.platform.api.reason.WaitReason;
import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.core.model.VictimProtection;
import dev.platform.scheduler.preemption.PreemptionStore;
import dev.platform.scheduler.workload.WorkloadObjects;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadService;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.scheduler.workload.WorkloadStatuses;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadUpdates;
import dev.platform.web.workload.WorkloadCommands;
import dev.platform.web.workload.WorkloadQueries;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * One workload's page in eight statements (row, conditions, positions, forecast, manifest, timeline,
 * preemptions, and its ClusterQueue for the minimum runtime that protects it), its cancellation through the same service as the REST DELETE, and its stop and resume through the
 * same service as the REST actions.
 */
@Component
class ConsoleWorkloads implements WorkloadQueries, WorkloadCommands {

    /** A workload takes part in few preemptions; the audit page has the rest. */
    static final int PREEMPTIONS = 100;

    private final WorkloadStore store;
    private final WorkloadStatuses statuses;
    private final WorkloadService service;
    private final PreemptionStore preemptions;
    private final WorkloadUpdates updates;
    private final ConfigStore config;
    private final Clock clock;
    private final WorkloadObjects objects;
    private final JsonMapper json;

    ConsoleWorkloads(WorkloadStore store, WorkloadStatuses statuses, WorkloadService service,
                     PreemptionStore preemptions, WorkloadUpdates updates, ConfigStore config, Clock clock,
                     WorkloadObjects objects, JsonMapper json) {
        this.objects = objects;
        this.json = json;
        this.updates = updates;
        this.config = config;
        this.clock = clock;
        this.store = store;
        this.statuses = statuses;
        this.service = service;
        this.preemptions = preemptions;
    }

    @Override
    public Optional<WorkloadDetail> workload(Caller caller, String namespace, String name) {
        return store.find(namespace, name).map(row -> {
            WorkloadStatus w = statuses.of(row);
            return new WorkloadDetail(w.namespace(), w.name(), w.kind(), w.uid(), w.queueName(), w.clusterQueue(),
                    w.priorityClassName(), w.priority(), w.state().name(), w.positionInClusterQueue(),
                    w.positionInLocalQueue(), WaitReason.of(row.pendingReason()), row.pendingMessage(), w.createdAt(), w.admittedAt(),
                    w.podSets().stream().map(p -> new PodSetView(p.name(), p.count(), p.requests())).toList(),
                    ConsoleViews.placements(row.admission()),
                    w.conditions().stream().map(c -> new ConditionView(c.type(), c.status(), c.reason(), c.message(),
                            c.lastTransitionTime())).toList(),
                    store.events(row.uid()).stream().map(e -> new EventView(e.at(), e.type(), e.status(), e.reason(),
                            e.message())).toList(),
                    preemptions.involving(row.uid(), PREEMPTIONS).stream()
                            .map(e -> ConsoleViews.preemption(e.seenBy(caller))).toList(),
                    objects.object(row).map(json::writeValueAsString).orElse(null), ConsoleViews.forecast(w.forecast()),
                    w.active(),
                    w.requeueState() == null ? null
                            : new WorkloadQueries.RequeueView(w.requeueState().count(), w.requeueState().requeueAt()),
                    w.submittedBy(), protectedUntil(row), w.admissionChecks().stream()
                            .map(c -> new WorkloadQueries.AdmissionCheckView(c.name(), c.state(), c.message(),
                                    c.lastTransitionTime())).toList());
        });
    }

    /**
     * When the minimum runtime of the workload's ClusterQueue stops protecting it from preemption, as the preemption
     * search reckons it from its current admission; null when it holds no admission, its queue has no minimum
     * runtime, or the time has passed.
     */
    private Instant protectedUntil(WorkloadRow row) {
        if (!row.state().holdsQuota() || row.admittedAt() == null || row.clusterQueue() == null) {
            return null;
        }
        Instant end = config.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster(row.clusterQueue()), ClusterQueueManifest.class)
                .map(q -> new VictimProtection(PreemptionAnnotations.minimumRuntime(q.annotations()), false)
                        .endsAt(row.admittedAt()))
                .orElse(null);
        return end != null && end.isAfter(clock.instant()) ? end : null;
    }

    @Override
    public Cancellation cancel(Caller caller, String namespace, String name) {
        Optional<WorkloadRow> workload = store.find(namespace, name);
        if (workload.isEmpty()) {
            return Cancellation.NOT_FOUND;
        }
        if (workload.get().state().isTerminal()) {
            return Cancellation.ALREADY_FINISHED;
        }
        service.cancel(namespace, name, caller.name());
        return Cancellation.CANCELLED;
    }

    @Override
    public Cancellation setActive(Caller caller, String namespace, String name, boolean active) {
        Optional<WorkloadRow> workload = store.find(namespace, name);
        if (workload.isEmpty()) {
            return Cancellation.NOT_FOUND;
        }
        if (workload.get().state().isTerminal()) {
            return Cancellation.ALREADY_FINISHED;
        }
        if (workload.get().lifecycle().active() != active) {
            updates.setActive(namespace, name, active, caller.name());
        }
        return Cancellation.CANCELLED;
    }
}
