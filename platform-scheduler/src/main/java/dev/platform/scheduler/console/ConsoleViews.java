package dev.platform.scheduler.console;

import dev.platform.api.reason.WaitReason;
import dev.platform.scheduler.workload.StoredAdmission;
import dev.platform.api.identity.Caller;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.scheduler.config.ClusterQueueStatus;
import dev.platform.scheduler.config.ConfigStore;
import dev.platform.scheduler.config.QueueUsage;
import dev.platform.scheduler.preemption.PreemptionEvent;
import dev.platform.scheduler.workload.WorkloadStatus;
import dev.platform.web.console.PodSetPlacement;
import dev.platform.web.console.ForecastView;
import dev.platform.web.console.LostWorkView;
import dev.platform.web.console.PreemptionView;
import dev.platform.web.console.QueueUsageView;
import dev.platform.web.console.ResourceUsageView;
import dev.platform.web.console.WorkloadLine;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.Map;

/** Scheduler read models turned into the console's view records; what several pages share. */
@Component
class ConsoleViews {

    private final ConfigStore config;
    private final QueueUsage usage;

    ConsoleViews(ConfigStore config, QueueUsage usage) {
        this.config = config;
        this.usage = usage;
    }

    /** The ClusterQueues {@code caller} sees, by name. */
    List<ClusterQueueManifest> visibleClusterQueues(Caller caller) {
        List<ClusterQueueManifest> queues = config.list(Kind.CLUSTER_QUEUE, ClusterQueueManifest.class);
        return config.clusterQueuesVisibleTo(caller)
                .map(visible -> queues.stream().filter(q -> visible.contains(q.name())).toList())
                .orElse(queues);
    }

    /** Status and live usage of the given queues, in their order: three statements whatever their number. */
    List<QueueUsageView> usageOf(List<ClusterQueueManifest> queues) {
        if (queues.isEmpty()) {
            return List.of();
        }
        Map<String, List<String>> missing = config.missingFlavorsByClusterQueue();
        Map<String, QueueUsage.Usage> usages = usage.of(queues.stream().map(ClusterQueueManifest::name).toList());
        return queues.stream().map(q -> {
            ClusterQueueStatus status = ClusterQueueStatus.of(q.stopPolicy().name(), missing.getOrDefault(q.name(), List.of()));
            QueueUsage.Usage u = usages.getOrDefault(q.name(), QueueUsage.Usage.NONE);
            return new QueueUsageView(q.name(), q.cohort(), q.queueingStrategy().name(), status.active(), status.reason(),
                    u.resources().stream().map(r -> new ResourceUsageView(r.flavor(), r.resource(), r.nominalQuota(),
                            r.borrowingLimit(), r.lendingLimit(), r.used(), r.borrowed(), r.lent())).toList(),
                    u.pendingWorkloads(), u.admittedWorkloads());
        }).toList();
    }

    static ForecastView forecast(WorkloadStatus.Forecast f) {
        return f == null ? null : new ForecastView(f.estimatedAdmissionAt(), f.p10(), f.p90(), f.basis(), f.message(),
                f.computedAt(), f.stale(), f.ifNothingArrivesAt(), f.arrivalBasis());
    }

    static PreemptionView preemption(PreemptionEvent e) {
        return new PreemptionView(e.id(), e.at(), e.reason(), e.message(), party(e.preemptor()), party(e.victim()),
                e.lostWork() == null ? null : new LostWorkView(e.lostWork().since(), e.lostWork().resourceSeconds()));
    }

    static List<PodSetPlacement> placements(StoredAdmission admission) {
        if (admission == null || admission.podSetAssignments() == null) {
            return List.of();
        }
        return admission.podSetAssignments().stream()
                .map(a -> new PodSetPlacement(a.name(), a.count(), a.flavors(), a.resourceUsage(), a.nodePools()))
                .toList();
    }

    static WorkloadLine line(WorkloadStatus w) {
        return new WorkloadLine(w.namespace(), w.name(), w.kind(), w.state().name(), w.queueName(), w.clusterQueue(),
                w.priority(), w.positionInClusterQueue(), w.positionInLocalQueue(),
                w.pendingReason() == null ? null : WaitReason.of(w.pendingReason().code()),
                w.pendingReason() == null ? null : w.pendingReason().message(), w.createdAt(), w.admittedAt());
    }

    private static PreemptionView.Party party(PreemptionEvent.Party p) {
        return new PreemptionView.Party(p.namespace(), p.name(), p.uid().toString(), p.clusterQueue(), p.priority());
    }
}
