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
import java.time.temporal.ChronoUnit;
import java.util.function.Function;
import java.util.HashSet;
import java.util.Arrays;
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
        return answerToRetry(document, idempotencyKey)
                .orElseGet(() -> create(document, idempotencyKey, submittedBy, SubmissionChecks::refuse));
    }

    /**
     * The answer to a retry: the workload stored under {@code idempotencyKey} when the same manifest was sent with
     * it (another manifest under that key is refused); empty when the key is new or none was sent.
     */
    private Optional<Submitted> answerToRetry(DecodedDocument document, String idempotencyKey) {
        if (idempotencyKey == null) {
            return Optional.empty();
        }
        WorkloadManifest manifest = (WorkloadManifest) document.manifest();
        Optional<WorkloadRow> earlier = store.findByIdempotencyKey(manifest.namespace(), idempotencyKey);
        earlier.ifPresent(row -> checks.requireSameRequest(row, manifest, idempotencyKey, document.index()));
        return earlier.map(row -> new Submitted(row, false));
    }

    /**
     * Creates the workload; {@code neverAdmitted} is told why a queued one could never be admitted (nothing when it
     * could) and may refuse it.
     */
    private Submitted create(DecodedDocument document, String idempotencyKey, String submittedBy,
                             Consumer<List<SubmissionChecks.Problem>> neverAdmitted) {
        WorkloadManifest manifest = (WorkloadManifest) document.manifest();
        if (store.findLive(manifest.namespace(), manifest.name()).isPresent()) {
            throw alreadyExists(manifest);
        }
        return store(List.of(plan(document, idempotencyKey, submittedBy, neverAdmitted, configuration.asOfNow())))
                .get(0);
    }

    /**
     * What creating the workload would store, checked against the configuration {@code current}, every check made
     * but whether its name is free (the caller's, under the writers' lock) and nothing written: a priority class its
     * team may not use or a queue it cannot use is a refusal, and {@code neverAdmitted} is told why a queued one
     * could never be admitted (nothing when it could) and may refuse it.
     */
    private Planned plan(DecodedDocument document, String idempotencyKey, String submittedBy,
                         Consumer<List<SubmissionChecks.Problem>> neverAdmitted, QueueConfiguration current) {
        WorkloadManifest manifest = (WorkloadManifest) document.manifest();
        allowedPriorityClasses.require(manifest, document.index());
        QueueNameResolution.QueueChoice queue = queues.resolve(manifest, document.index());
        if (queue.isPriorityOnly()) {
            PriorityResolver.ResolvedPriority priority = priorities.resolve(manifest, current);
            return new Planned(manifest, null, priority.className(), priority.value(), PendingReason.WaitingForNodePool,
                    PRIORITY_ONLY_MESSAGE, idempotencyKey, submittedBy, current);
        }
        String queueName = queue.queueName();
        WorkloadManifest queued = withQueue(manifest, queueName);
        Optional<String> clusterQueue = current.clusterQueueOf(queued.namespace(), queueName);
        clusterQueue.ifPresent(cq -> requireCoveredResources(queued, cq, current));
        neverAdmitted.accept(checks.neverAdmitted(queued, queueName, clusterQueue.orElse(null), document.index(),
                current));
        PriorityResolver.ResolvedPriority priority = priorities.resolve(queued, current);
        PendingReason pendingReason = !queued.active() ? PendingReason.Deactivated
                : clusterQueue.isPresent() ? null : PendingReason.LocalQueueNotFound;
        String pendingMessage = !queued.active() ? WorkloadTransitions.DEACTIVATED_MESSAGE
                : clusterQueue.isPresent() ? null : "LocalQueue " + queueName + " doesn't exist";
        return new Planned(queued, clusterQueue.orElse(null), priority.className(), priority.value(), pendingReason,
                pendingMessage, idempotencyKey, submittedBy, current);
    }

    /**
     * A workload checked and ready to store: what {@link WorkloadTransitions#submitAll} writes but its uid and its
     * time, which it gets when stored; {@code checkedAgainst} is the configuration it was checked against.
     */
    record Planned(WorkloadManifest manifest, String clusterQueue, String priorityClassName, int priority,
                   PendingReason pendingReason, String pendingMessage, String idempotencyKey, String submittedBy,
                   QueueConfiguration checkedAgainst) {

        String namespacedName() {
            return manifest.namespace() + "/" + manifest.name();
        }
    }

    /**
     * Stores planned workloads, in their order, as submitted now: each gets a queue time after the one before it,
     * so the queue's FIFO order is the order they were stored in, as when they are stored one by one. The caller
     * holds {@link WorkloadTransitions#lockChanges()}.
     */
    private List<Submitted> store(List<Planned> planned) {
        List<WorkloadTransitions.NewWorkload> workloads = new ArrayList<>(planned.size());
        Instant previous = Instant.MIN;
        for (Planned p : planned) {
            // PostgreSQL keeps microseconds: two instants within one would tie, and their uids would order them.
            Instant now = clock.instant().truncatedTo(ChronoUnit.MICROS);
            Instant at = now.isAfter(previous) ? now : previous.plus(1, ChronoUnit.MICROS);
            previous = at;
            workloads.add(new WorkloadTransitions.NewWorkload(UUID.randomUUID(), p.manifest(), p.clusterQueue(),
                    p.priorityClassName(), p.priority(), p.pendingReason(), p.pendingMessage(), at,
                    p.idempotencyKey(), p.submittedBy()));
        }
        List<WorkloadRow> rows = transitions.submitAll(workloads);
        events.publishEvent(new WorkloadsChanged());
        return rows.stream().map(row -> new Submitted(row, true)).toList();
    }

    /**
     * A submission checked before it waits for its group ({@link SubmissionWriter}), outside the writers' lock and
     * with no lookup of its own (the configuration from memory): either answered already (a retry of a stored submission, as {@link #submitLocked} would
     * answer it) or {@link Planned}, with what {@link #storeChecked} needs to store it. It is checked against the
     * configuration as this replica last read it; {@link #storeChecked} checks it again, under the writers' lock,
     * if the configuration changed since, so a stored submission is one the configuration at its commit allows. A
     * refusal is thrown here, with nothing written, after a second look: against the configuration as it is now, and
     * whether the key was stored before (a retry of a stored submission answers as its first request was, even when
     * the checks would refuse it now). Whether the name is free and whether the key was stored are otherwise left to
     * {@link #storeChecked}, which must look under the writers' lock anyway.
     */
    Checked check(DecodedDocument document, String idempotencyKey, String submittedBy) {
        try {
            return new Checked(document, null, plan(document, idempotencyKey, submittedBy, SubmissionChecks::refuse,
                    configuration.asLastRead()));
        } catch (Refusal refusedAsLastRead) {
            // Looked at again below, as it is now.
        }
        try {
            return new Checked(document, null, plan(document, idempotencyKey, submittedBy, SubmissionChecks::refuse,
                    configuration.asOfNow()));
        } catch (Refusal refused) {
            return answerToRetry(document, idempotencyKey).map(answer -> new Checked(document, answer, null))
                    .orElseThrow(() -> refused);
        }
    }

    /** A checked submission: {@code answer} when it was answered at once, else {@code planned} to store. */
    record Checked(DecodedDocument document, Submitted answer, Planned planned) {
    }

    /**
     * Stores a group of checked submissions under the writers' lock, which the caller holds, and returns each one's
     * outcome in order: what it stored or found, or the refusal. What may have changed since the checks is checked
     * again, for the whole group in two statements: a key another request stored meanwhile answers as a retry
     * does, a submission checked against a configuration that has changed since is checked again against the
     * configuration now, a name taken meanwhile (or earlier in the group) is a conflict. The others are stored in one
     * statement. A key used twice in the group is left to {@code oneByOne} after the others are stored, which answers
     * it as {@link #submitLocked} does.
     */
    List<Object> storeChecked(List<Checked> group, Function<Checked, Object> oneByOne) {
        QueueConfiguration now = configuration.asOfNow();
        List<Planned> planned = group.stream().map(Checked::planned).toList();
        WorkloadStore.Collisions collisions = store.collisions(
                planned.stream().map(p -> Map.entry(p.manifest().namespace(), p.manifest().name())).toList(),
                planned.stream().filter(p -> p.idempotencyKey() != null)
                        .map(p -> Map.entry(p.manifest().namespace(), p.idempotencyKey())).toList());
        Map<String, WorkloadRow> storedByKey = collisions.byKey();
        Set<String> taken = collisions.names();
        Set<String> keysInGroup = new HashSet<>();
        Object[] outcomes = new Object[group.size()];
        List<Integer> toStore = new ArrayList<>();
        List<Planned> plans = new ArrayList<>();
        List<Integer> later = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            Planned p = planned.get(i);
            String key = p.idempotencyKey() == null ? null : p.manifest().namespace() + "/" + p.idempotencyKey();
            if (key != null && storedByKey.containsKey(key)) {
                outcomes[i] = retried(storedByKey.get(key), group.get(i));
            } else if (key != null && !keysInGroup.add(key)) {
                later.add(i);
            } else {
                Object current = asConfiguredNow(group.get(i), now);
                if (current instanceof Refusal refused) {
                    outcomes[i] = refused;
                } else if (!taken.add(p.namespacedName())) {
                    outcomes[i] = alreadyExists(p.manifest());
                } else {
                    toStore.add(i);
                    plans.add((Planned) current);
                }
            }
        }
        List<Submitted> stored = toStore.isEmpty() ? List.of() : store(plans);
        for (int n = 0; n < toStore.size(); n++) {
            outcomes[toStore.get(n)] = stored.get(n);
        }
        later.forEach(i -> outcomes[i] = oneByOne.apply(group.get(i)));
        return Arrays.asList(outcomes);
    }

    /**
     * The submission's plan as the configuration {@code now} allows: the one checked if the configuration has not
     * changed since, else checked again; a refusal is returned, not thrown.
     */
    private Object asConfiguredNow(Checked submission, QueueConfiguration now) {
        Planned planned = submission.planned();
        if (planned.checkedAgainst() == now) {
            return planned;
        }
        try {
            return plan(submission.document(), planned.idempotencyKey(), planned.submittedBy(),
                    SubmissionChecks::refuse, now);
        } catch (Refusal refused) {
            return refused;
        }
    }

    /** The answer to a submission whose key was stored meanwhile: the stored one, or the refusal of another manifest. */
    private Object retried(WorkloadRow earlier, Checked submission) {
        WorkloadManifest manifest = (WorkloadManifest) submission.document().manifest();
        try {
            checks.requireSameRequest(earlier, manifest, submission.planned().idempotencyKey(),
                    submission.document().index());
            return new Submitted(earlier, false);
        } catch (Refusal refused) {
            return refused;
        }
    }

    /** A name in use, with what to do next: another name, the old one deleted, or a retry that is one. */
    private static Refusal alreadyExists(WorkloadManifest manifest) {
        return Refusal.conflict(manifest.kind().manifestName() + " \"" + manifest.namespace() + "/"
                + manifest.name() + "\" already exists: submit under another name, or delete it first (DELETE"
                + " /api/v1/namespaces/" + manifest.namespace() + "/workloads/" + manifest.name() + "; its history"
                + " stays); a retry of the same submission answers the first one when both carry the same"
                + " Idempotency-Key header", List.of());
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
        Optional<WorkloadRow> existing = store.findLive(manifest.namespace(), manifest.name());
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
        throw new ImmutableWorkloadChange(manifest.kind().manifestName() + " \"" + manifest.namespace() + "/"
                + manifest.name() + "\" already exists with a different manifest; a submitted workload cannot be"
                + " changed: delete it and submit again", updates.changedField(existing.get(), manifest));
    }

    /**
     * Why a workload without a queue name waits: in a namespace where an Admin allowed it, it runs in priority-only
     * mode (the seed's seed-hotswap.yaml), as GKE runs pods without Kueue: no quota, placed on a free healthy node
     * pool by priority once a cluster is connected.
     */
    static final String PRIORITY_ONLY_MESSAGE = "priority-only mode (no kueue.x-k8s.io/queue-name): no quota;"
            + " waits for a free healthy node pool";

    /**
     * Cancels a workload and frees its name, as deleting its JobSet does in Kubernetes: Finished with reason Cancelled
     * (when it had not ended), its quota freed at once, and its JobSet deleted from the cluster it ran in
     * ({@link WorkloadCancelled}, handled in this transaction). The row stays with its history under its uid, and is
     * what a read by the name shows until a new workload takes the name. The timeline and the access audit name
     * {@code actor}. Cancelling one whose name is already free changes nothing.
     */
    @Transactional
    public WorkloadRow cancel(String namespace, String name, String actor) {
        transitions.lockChanges();
        Optional<WorkloadRow> live = store.findLive(namespace, name);
        if (live.isEmpty()) {
            return store.find(namespace, name)
                    .orElseThrow(() -> Refusal.notFound("Workload", namespace + "/" + name));
        }
        WorkloadRow workload = live.get();
        Instant now = clock.instant();
        transitions.release(workload.uid(), now);
        if (workload.state().isTerminal()) {
            events.publishEvent(new WorkloadsChanged());
            return store.find(workload.uid()).orElseThrow();
        }
        transitions.cancel(workload.uid(), now, actor);
        events.publishEvent(new WorkloadCancelled(workload.uid(), namespace, name, workload.cluster()));
        audit.record(actor, AccessAuditEntry.Action.WorkloadCancelled, namespace + "/" + name,
                "uid=" + workload.uid());
        events.publishEvent(new WorkloadsChanged());
        return store.find(workload.uid()).orElseThrow();
    }

    /** Kueue admits only what a ClusterQueue covers; a request it can never satisfy is refused at once. */
    private static void requireCoveredResources(WorkloadManifest workload, String clusterQueue,
                                                QueueConfiguration configuration) {
        Set<String> covered = configuration.coveredResources(clusterQueue);
        if (covered.isEmpty()) {
            return;
        }
        for (int i = 0; i < workload.podSets().size(); i++) {
            PodSetSpec podSet = workload.podSets().get(i);
            for (String resource : new TreeSet<>(podSet.requests().keySet())) {
                if (!covered.contains(resource)) {
                    throw invalid(PodSetPaths.request(workload, i, resource), "resource " + resource
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
