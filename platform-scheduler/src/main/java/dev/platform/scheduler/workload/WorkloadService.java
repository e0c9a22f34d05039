package dev.platform.scheduler.workload;

import dev.platform.api.reason.PendingReason;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.scheduler.identity.AccessAudit;
import dev.platform.scheduler.identity.AccessAuditEntry;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Consumer;

/** Submitting and cancelling workloads; the scheduling loop takes it from there. */
@Service
public class WorkloadService {


    private final WorkloadStore store;
    private final PriorityResolver priorities;
    private final QueueConfiguration configuration;
    private final ApplicationEventPublisher events;
    private final Clock clock;
    private final QueueNameResolution queues;
    private final SubmissionChecks checks;
    private final AccessAudit audit;
    private final WorkloadTransitions transitions;
    private final WorkloadUpdates updates;
    private final AllowedPriorityClasses allowedPriorityClasses;

    public WorkloadService(WorkloadStore store, WorkloadTransitions transitions, WorkloadUpdates updates,
                           PriorityResolver priorities, QueueConfiguration configuration,
                           ApplicationEventPublisher events, Clock clock,
                           QueueNameResolution queues, SubmissionChecks checks, AccessAudit audit,
                           AllowedPriorityClasses allowedPriorityClasses) {
        this.allowedPriorityClasses = allowedPriorityClasses;
        this.audit = audit;
        this.transitions = transitions;
        this.updates = updates;
        this.store = store;
        this.priorities = priorities;
        this.configuration = configuration;
        this.events = events;
        this.clock = clock;
        this.queues = queues;
        this.checks = checks;
    }

    /** The outcome of a submission: the workload, and whether this call created it. */
    public record Submitted(WorkloadRow workload, boolean created) {
    }

    /** What applying a workload did (created, updated or unchanged), and what it warns of. */
    public record Applied(String action, List<String> warnings) {
    }

    /**
     * Stores a new Pending workload in a transaction of its own; one that could never be admitted (its LocalQueue
     * missing, its requests beyond what its ClusterQueue could ever give) is refused. A retried request with the
     * same {@code Idempotency-Key} and manifest returns the workload the first request created; another manifest
     * under that key is refused. {@code submittedBy} names the caller who submitted it; null when nobody did
     * through the platform (a JobSet adopted from a cluster).
     */
    @Transactional
    public Submitted submit(DecodedDocument document, String idempotencyKey, String submittedBy) {
        transitions.lockChanges();
        return submitLocked(document, idempotencyKey, submittedBy);
    }

    /**
     * One submission's checks and its insert, in the caller's transaction, which holds
     * {@link WorkloadTransitions#lockChanges()}: {@link #submit} for one, {@link SubmissionWriter} for a group.
     * A refusal is thrown before anything is written.
     */
    Submitted submitLocked(DecodedDocument document, String idempotencyKey, String submittedBy) {
        WorkloadManifest manifest = (WorkloadManifest) document.manifest();
        if (idempotencyKey != null) {
            Optional<WorkloadRow> earlier = store.findByIdempotencyKey(manifest.namespace(), idempotencyKey);
            if (earlier.isPresent()) {
                checks.requireSameRequest(earlier.get(), manifest, idempotencyKey, document.index());
                return new Submitted(earlier.get(), false);
            }
        }
        return create(document, idempotencyKey, submittedBy, SubmissionChecks::refuse);
    }

    /**
     * Creates the workload; {@code neverAdmitted} is told why a queued one could never be admitted (nothing when it
     * could) and may refuse it.
     */
    private Submitted create(DecodedDocument document, String idempotencyKey, String submittedBy,
                             Consumer<List<SubmissionChecks.Problem>> neverAdmitted) {
        WorkloadManifest manifest = (WorkloadManifest) document.manifest();
        if (store.find(manifest.namespace(), manifest.name()).isPresent()) {
            throw Refusal.conflict(manifest.kind().manifestName() + " \"" + manifest.namespace() + "/"
                    + manifest.name() + "\" already exists", List.of());
        }
        allowedPriorityClasses.require(manifest, document.index());
        QueueNameResolution.QueueChoice queue = queues.resolve(manifest, document.index());
        if (queue.isPriorityOnly()) {
            return submitPriorityOnly(manifest, idempotencyKey, submittedBy);
        }
        String queueName = queue.queueName();
        WorkloadManifest queued = withQueue(manifest, queueName);
        Optional<String> clusterQueue = configuration.clusterQueueOf(queued.namespace(), queueName);
        clusterQueue.ifPresent(cq -> requireCoveredResources(queued, cq));
        neverAdmitted.accept(checks.neverAdmitted(queued, queueName, clusterQueue.orElse(null), document.index()));
        PriorityResolver.ResolvedPriority priority = priorities.resolve(queued);
        UUID uid = UUID.randomUUID();
        Instant now = clock.instant();
        PendingReason pendingReason = !queued.active() ? PendingReason.Deactivated
                : clusterQueue.isPresent() ? null : PendingReason.LocalQueueNotFound;
        String pendingMessage = !queued.active() ? WorkloadTransitions.DEACTIVATED_MESSAGE
                : clusterQueue.isPresent() ? null : "LocalQueue " + queueName + " doesn't exist";
        transitions.submit(uid, queued, clusterQueue.orElse(null), priority.className(), priority.value(),
                pendingReason, pendingMessage, now, idempotencyKey, submittedBy);
        events.publishEvent(new WorkloadsChanged());
        return new Submitted(store.find(queued.namespace(), queued.name()).orElseThrow(), true);
    }

    /**
     * A workload posted with {@code POST /api/v1/manifests}: created when new; unchanged when the
     * same manifest was submitted before (status and server-set metadata aside); updated when only
     * what may change of a submitted workload differs (spec.active, the priority-class label:
     * {@link WorkloadUpdates}); any other difference is a conflict, since a submitted workload is
     * otherwise immutable (delete and resubmit). As {@code kubectl apply} of a Kueue job does, a workload whose
     * LocalQueue does not exist (yet) or that asks more than its ClusterQueue could ever give is created, pending,
     * with a warning saying so. A workload it creates was submitted by {@code actor}.
     */
    @Transactional
    public Applied apply(DecodedDocument document, String actor) {
        WorkloadManifest manifest = (WorkloadManifest) document.manifest();
        transitions.lockChanges();
        Optional<WorkloadRow> existing = store.find(manifest.namespace(), manifest.name());
        if (existing.isEmpty()) {
            List<String> warnings = new ArrayList<>();
            create(document, null, actor, problems -> problems.forEach(p -> warnings.add(p.warning())));
            return new Applied("created", warnings);
        }
        if (store.sameManifest(existing.get().uid(), manifest.manifest())) {
            return new Applied("unchanged", List.of());
        }
        if (updates.applyChanged(existing.get(), manifest, actor)) {
            return new Applied("updated", List.of());
        }
        throw Refusal.conflict(manifest.kind().manifestName() + " \"" + manifest.namespace() + "/"
                + manifest.name() + "\" already exists with a different manifest; a submitted workload cannot be"
                + " changed: delete it and submit again", List.of());
    }

    /**
     * A workload without a queue name, in a namespace where an Admin allowed it, runs in priority-only mode (the
     * seed's seed-hotswap.yaml), as GKE runs pods without Kueue: no quota, placed on a free healthy node pool by
     * priority once a cluster is connected.
     */
    private Submitted submitPriorityOnly(WorkloadManifest manifest, String idempotencyKey, String submittedBy) {
        PriorityResolver.ResolvedPriority priority = priorities.resolve(manifest);
        UUID uid = UUID.randomUUID();
        Instant now = clock.instant();
        transitions.submit(uid, manifest, null, priority.className(), priority.value(), PendingReason.WaitingForNodePool,
                PRIORITY_ONLY_MESSAGE, now, idempotencyKey, submittedBy);
        events.publishEvent(new WorkloadsChanged());
        return new Submitted(store.find(manifest.namespace(), manifest.name()).orElseThrow(), true);
    }

    static final String PRIORITY_ONLY_MESSAGE = "priority-only mode (no kueue.x-k8s.io/queue-name): no quota;"
            + " waits for a free healthy node pool";

    /**
     * Cancels a workload: Finished with reason Cancelled, its quota freed at once, and its JobSet
     * deleted from the cluster it ran in ({@link WorkloadCancelled}, handled in this transaction). The
     * timeline and the access audit name {@code actor}.
     */
    @Transactional
    public WorkloadRow cancel(String namespace, String name, String actor) {
        transitions.lockChanges();
        WorkloadRow workload = store.find(namespace, name)
                .orElseThrow(() -> Refusal.notFound("Workload", namespace + "/" + name));
        if (workload.state().isTerminal()) {
            return workload;
        }
        Instant now = clock.instant();
        transitions.cancel(workload.uid(), now, actor);
        events.publishEvent(new WorkloadCancelled(workload.uid(), namespace, name, workload.cluster()));
        audit.record(actor, AccessAuditEntry.Action.WorkloadCancelled, namespace + "/" + name,
                "uid=" + workload.uid());
        events.publishEvent(new WorkloadsChanged());
        return store.find(namespace, name).orElseThrow();
    }

    /** Kueue admits only what a ClusterQueue covers; a request it can never satisfy is refused at once. */
    private void requireCoveredResources(WorkloadManifest workload, String clusterQueue) {
        Set<String> covered = configuration.coveredResources(clusterQueue);
        if (covered.isEmpty()) {
            return;
        }
        for (int i = 0; i < workload.podSets().size(); i++) {
            PodSetSpec podSet = workload.podSets().get(i);
            for (String resource : new TreeSet<>(podSet.requests().keySet())) {
                if (!covered.contains(resource)) {
                    throw invalid("podSets[" + i + "].requests." + resource, "resource " + resource
                            + " is not covered by ClusterQueue " + clusterQueue + " (it covers " + covered + ")");
                }
            }
        }
    }

    private static WorkloadManifest withQueue(WorkloadManifest m, String queueName) {
        if (queueName.equals(m.queueName())) {
            return m;
        }
        return new WorkloadManifest(m.kind(), m.apiVersion(), m.metadata(), queueName, m.workloadPriorityClassName(),
                m.priorityClassName(), m.explicitPriority(), m.podSets(), m.exclusiveTopology(), m.maxRestarts(),
                m.restartStrategy(), m.suspend(), m.maximumExecutionTimeSeconds(), m.active(), m.manifest());
    }

    private static Refusal invalid(String path, String message) {
        return new Refusal(Refusal.Kind.Invalid, "Invalid workload", message,
                List.of(Map.of("document", 0, "path", path, "message", message)));
    }

    /** Published after a workload write, to wake the scheduling loop. */
    public record WorkloadsChanged() {
    }

    /**
     * Published inside the cancelling transaction, so its listeners write in it (the agent gateway deletes
     * the JobSet); {@code cluster} is where it is placed, null when it is placed nowhere now.
     */
    public record WorkloadCancelled(UUID uid, String namespace, String name, String cluster) {
    }
}
