package dev.platform.agent.webhook;

import dev.platform.agent.cluster.ClusterJob;
import dev.platform.agent.cluster.JobKind;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.agent.webhook.AdmissionRequest.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Kueue's job webhook rules, for JobSets and batch Jobs alike ({@link JobKind}).
 *
 * <p>Defaulting, on create: a job the platform manages (it names a queue, or {@link ManagedJobs} takes it for its
 * namespace's default queue) is suspended, so nothing runs before the platform admits it; the agent then submits
 * it. Validation, as Kueue's: an admitted (running) job keeps its queue name and its pod sets, and a managed job
 * is not unsuspended but by the platform. The platform's own writes are recognised by its marks: the
 * {@code platform.dev/managed} and workload-uid labels with a new {@code platform.dev/last-command-id}, which every
 * START and RESTART sets. A JobSet that forges them runs as a platform JobSet the platform does not know, which
 * the scheduler's stray-JobSet check suspends.
 */
final class JobAdmission {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ManagedJobs managed;

    JobAdmission(ManagedJobs managed) {
        this.managed = managed;
    }

    /** Kueue's {@code Default}: on CREATE only, as its webhook configuration registers it. */
    AdmissionDecision mutate(JobKind kind, AdmissionRequest request) {
        if (request.operation() != Operation.CREATE) {
            return AdmissionDecision.allowed();
        }
        ClusterJob job = ClusterJob.of(kind, request.object());
        if (job.ownedByJobSet()) {
            return AdmissionDecision.unmanaged();
        }
        if (startedByPlatform(job)) {
            return AdmissionDecision.allowed();
        }
        List<ObjectNode> patch = new ArrayList<>();
        if (job.queueName() == null) {
            String defaultQueue = managed.defaultQueueIn(request.namespace());
            if (defaultQueue == null) {
                return AdmissionDecision.unmanaged();
            }
            patch.add(queueNameLabel(request.object(), defaultQueue));
        }
        if (!job.suspended()) {
            boolean present = request.object().path("spec").has("suspend");
            patch.add(operation(present ? "replace" : "add", "/spec/suspend", NODES.booleanNode(true)));
        }
        return AdmissionDecision.patched(patch);
    }

    /** Kueue's {@code ValidateCreate} and {@code ValidateUpdate}, for the jobs the platform manages. */
    AdmissionDecision validate(JobKind kind, AdmissionRequest request) {
        ClusterJob job = ClusterJob.of(kind, request.object());
        boolean queueNamed = job.queueName() != null
                || request.operation() == Operation.UPDATE && ClusterJob.of(kind, request.oldObject()).queueName() != null;
        if (request.operation() == Operation.DELETE || request.operation() == Operation.CONNECT || job.ownedByJobSet()
                || !queueNamed && managed.defaultQueueIn(request.namespace()) == null) {
            return AdmissionDecision.unmanaged();
        }
        List<FieldError> errors = new ArrayList<>();
        if (request.operation() == Operation.CREATE) {
            if (!job.suspended() && !startedByPlatform(job)) {
                errors.add(notAdmitted(kind));
            }
            return AdmissionDecision.refused(errors);
        }
        ClusterJob old = ClusterJob.of(kind, request.oldObject());
        boolean platformStart = startedByPlatform(job) && !Objects.equals(job.lastCommandId(), old.lastCommandId());
        boolean admitted = !old.suspended();
        if (admitted && !Objects.equals(job.queueName(), old.queueName())) {
            errors.add(FieldError.invalid(queueNamePath(request.object()), Objects.toString(job.queueName(), ""),
                    "field is immutable while the workload is admitted"));
        }
        if (admitted && !platformStart) {
            for (String field : podSetFields(kind)) {
                if (!request.object().path("spec").path(field).equals(request.oldObject().path("spec").path(field))) {
                    errors.add(FieldError.forbidden("spec." + field,
                            "the pod sets of an admitted workload are immutable: its quota was reserved for them"));
                }
            }
        }
        if (!admitted && !job.suspended() && !platformStart) {
            errors.add(notAdmitted(kind));
        }
        return AdmissionDecision.refused(errors);
    }

    /**
     * The fields of {@code spec} that admission sized quota for: a JobSet's replicated jobs; a Job's pod count and
     * its pod template (Kubernetes lets a running Job's parallelism change, Kueue does not while it is admitted).
     */
    private static List<String> podSetFields(JobKind kind) {
        return switch (kind) {
            case JOBSET -> List.of("replicatedJobs");
            case JOB -> List.of("parallelism", "completions", "template");
        };
    }

    private static FieldError notAdmitted(JobKind kind) {
        return FieldError.forbidden("spec.suspend", "the platform has not admitted this " + kind.kind()
                + ": it stays suspended until the platform starts it (its events say why it waits)");
    }

    /** Every START and RESTART of the platform's sets these; a user's job carries none of them. */
    private static boolean startedByPlatform(ClusterJob job) {
        return job.workloadUid() != null && job.lastCommandId() != null;
    }

    private static String queueNamePath(JsonNode object) {
        String where = object.path("metadata").path("labels").has(AgentProtocol.QUEUE_NAME_LABEL) ? "labels" : "annotations";
        return "metadata." + where + "[" + AgentProtocol.QUEUE_NAME_LABEL + "]";
    }

    /** The label Kueue's LocalQueue defaulting adds; the labels map is created when the object has none. */
    private static ObjectNode queueNameLabel(JsonNode object, String queue) {
        if (object.path("metadata").path("labels").isObject()) {
            return operation("add", "/metadata/labels/" + AgentProtocol.QUEUE_NAME_LABEL.replace("/", "~1"),
                    NODES.stringNode(queue));
        }
        ObjectNode labels = NODES.objectNode();
        labels.put(AgentProtocol.QUEUE_NAME_LABEL, queue);
        return operation("add", "/metadata/labels", labels);
    }

    private static ObjectNode operation(String op, String path, JsonNode value) {
        ObjectNode operation = NODES.objectNode();
        operation.put("op", op);
        operation.put("path", path);
        operation.set("value", value);
        return operation;
    }
}
