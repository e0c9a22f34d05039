package dev.platform.scheduler.console;

import dev.platform.api.reason.WaitReason;
import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import dev.platform.scheduler.config.AdmissionCheckConfigs;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.web.queue.QueueQueries.AdmissionCheckRow;
import dev.platform.scheduler.config.ObjectKey;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.web.queue.QueueQueries;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Optional;

/** A ClusterQueue's page in six statements: the queue, its usage, a window of pending with forecasts, the admitted. */
@Component
class ConsoleQueues implements QueueQueries {

    private final ConfigStore config;
    private final AdmissionCheckConfigs admissionChecks;
    private final ConsoleViews views;
    private final WorkloadStore workloads;

    ConsoleQueues(ConfigStore config, ConsoleViews views, WorkloadStore workloads, AdmissionCheckConfigs admissionChecks) {
        this.admissionChecks = admissionChecks;
        this.config = config;
        this.views = views;
        this.workloads = workloads;
    }

    @Override
    public List<String> clusterQueueNames(Caller caller) {
        return views.visibleClusterQueues(caller).stream().map(ClusterQueueManifest::name).toList();
    }

    @Override
    public List<PriorityOnlyRow> priorityOnly(Caller caller, int limit) {
        return workloads.priorityOnly(limit).stream()
                .map(w -> !caller.mayRead(w.namespace()) ? PriorityOnlyRow.hidden()
                        : new PriorityOnlyRow(w.namespace(), w.name(), w.priorityClassName(), w.priority(),
                        w.state().name(), WaitReason.of(w.pendingReason()), w.pendingMessage(),
                        ConsoleViews.placements(w.admission())))
                .toList();
    }

    /** Other teams' workloads keep their positions, so the caller sees how many are ahead, not who. */
    @Override
    public Optional<QueuePage> clusterQueue(Caller caller, String name, int offset, int limit) {
        return config.find(Kind.CLUSTER_QUEUE, ObjectKey.cluster(name), ClusterQueueManifest.class).map(queue -> {
            List<PendingRow> pending = workloads.pendingInClusterQueue(name, offset, limit).stream()
                    .map(w -> !caller.mayRead(w.namespace()) ? PendingRow.hidden(w.positionInClusterQueue())
                            : new PendingRow(w.namespace(), w.name(), w.localQueueName(), w.priorityClassName(),
                            w.priority(), w.positionInClusterQueue(), w.positionInLocalQueue(), w.creationTimestamp(),
                            w.pendingReason() == null ? null : WaitReason.of(w.pendingReason().code()),
                            w.pendingReason() == null ? null : w.pendingReason().message(),
                            ConsoleViews.forecast(w.forecast()), w.submittedBy()))
                    .toList();
            List<AdmittedRow> admitted = workloads.admittedInClusterQueue(name, limit).stream()
                    .map(w -> !caller.mayRead(w.namespace()) ? AdmittedRow.hidden() : new AdmittedRow(w.namespace(), w.name(), w.queueName(), w.priority(), w.state().name(),
                            w.admittedAt(), ConsoleViews.placements(w.admission())))
                    .toList();
            List<AdmissionCheckRow> checks = queue.admissionChecks().stream().map(rule -> {
                Optional<AdmissionCheckManifest> check = admissionChecks.admissionCheck(rule.name());
                return new AdmissionCheckRow(rule.name(), check.map(AdmissionCheckManifest::controllerName).orElse(null),
                        rule.onFlavors(), admissionChecks.provisioningFor(rule.name())
                        .map(ProvisioningRequestConfigManifest::provisioningClassName).orElse(null));
            }).toList();
            return new QueuePage(views.usageOf(List.of(queue)).get(0), pending, admitted, checks);
        });
    }
}
