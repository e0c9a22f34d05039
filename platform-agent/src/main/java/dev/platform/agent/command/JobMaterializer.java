package dev.platform.agent.command;

import dev.platform.agent.cluster.JobKind;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.GkeLabels;
import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the manifest stored at submission into the JobSet or batch Job the cluster runs: ownership labels on
 * the object and on every pod template, the flavor's node labels and tolerations, and a required node affinity on
 * the assigned pools, as Kueue injects a flavor into the pod templates when it starts a job. With the exclusive-topology
 * annotation, JobSet then puts each replica on its own pool among those. A JobSet's pod templates also get the
 * priority class; a Job's are left theirs, since Kubernetes refuses a changed priority class on an existing Job
 * (an adopted one), and its pods already carry the class it was admitted with.
 */
final class JobMaterializer {

    private JobMaterializer() {
    }

    /**
     * The kind a START or RESTART makes: a batch Job for a Job manifest (submitted through the REST API, or found
     * in the cluster), else a JobSet.
     */
    static JobKind kindOf(AgentCommand command) {
        JsonNode manifest = command.payload() == null ? null : command.payload().manifest();
        return manifest == null ? JobKind.JOBSET : JobKind.ofManifest(manifest.path("apiVersion").asString(""),
                manifest.path("kind").asString("")).orElse(JobKind.JOBSET);
    }

    /**
     * @param podAnnotations set on every pod template: the ProvisioningRequest whose capacity the pods consume and
     *                       its class, when the workload was admitted on provisioned capacity
     */
    static ObjectNode materialize(JobKind kind, AgentCommand command, Map<String, String> podAnnotations) {
        CommandPayload payload = command.payload();
        ObjectNode job = payload.manifest() instanceof ObjectNode manifest
                ? manifest.deepCopy()
                : JsonNodeFactory.instance.objectNode();
        job.put("apiVersion", kind.apiVersion());
        job.put("kind", kind.kind());
        job.remove("status");
        ObjectNode metadata = object(job, "metadata");
        for (String serverSet : new String[] {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"}) {
            metadata.remove(serverSet);
        }
        metadata.put("name", command.name());
        metadata.put("namespace", command.namespace());
        ownershipLabels(object(metadata, "labels"), command);
        object(metadata, "annotations").put(AgentProtocol.LAST_COMMAND_ANNOTATION, Long.toString(command.id()));
        ObjectNode spec = object(job, "spec");
        spec.put("suspend", false);
        for (ObjectNode template : podTemplates(kind, spec)) {
            ownershipLabels(object(object(template, "metadata"), "labels"), command);
            if (!podAnnotations.isEmpty()) {
                ObjectNode annotations = object(object(template, "metadata"), "annotations");
                podAnnotations.forEach(annotations::put);
            }
            pin(kind, object(template, "spec"), payload);
        }
        return job;
    }

    /** A JobSet's pod templates are those of its replicated jobs; a Job has one. */
    private static List<ObjectNode> podTemplates(JobKind kind, ObjectNode spec) {
        if (kind == JobKind.JOB) {
            return List.of(object(spec, "template"));
        }
        List<ObjectNode> templates = new ArrayList<>();
        for (JsonNode replicatedJob : spec.path("replicatedJobs")) {
            if (replicatedJob instanceof ObjectNode job) {
                templates.add(object(object(object(job, "template"), "spec"), "template"));
            }
        }
        return templates;
    }

    /**
     * The part of a materialized object that START and RESTART patch onto an existing one: its marks, its pod
     * templates (a JobSet's replicated jobs, a Job's template, whose node selection Kubernetes lets change while
     * the Job is suspended) and the resumption.
     */
    static ObjectNode patchFor(JobKind kind, ObjectNode materialized) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.set("labels", materialized.path("metadata").path("labels"));
        metadata.set("annotations", materialized.path("metadata").path("annotations"));
        ObjectNode spec = patch.putObject("spec");
        spec.put("suspend", false);
        String templates = kind == JobKind.JOB ? "template" : "replicatedJobs";
        spec.set(templates, materialized.path("spec").path(templates));
        return patch;
    }

    private static void ownershipLabels(ObjectNode labels, AgentCommand command) {
        labels.put(AgentProtocol.MANAGED_LABEL, "true");
        labels.put(AgentProtocol.WORKLOAD_UID_LABEL, command.workloadUid());
    }

    private static void pin(JobKind kind, ObjectNode podSpec, CommandPayload payload) {
        if (kind == JobKind.JOBSET && payload.priorityClassName() != null) {
            podSpec.put("priorityClassName", payload.priorityClassName());
        }
        if (!payload.nodeLabels().isEmpty()) {
            ObjectNode nodeSelector = object(podSpec, "nodeSelector");
            payload.nodeLabels().forEach(nodeSelector::put);
        }
        addTolerations(podSpec, payload.tolerations());
        if (!payload.nodePools().isEmpty()) {
            restrictToPools(podSpec, payload);
        }
    }

    /** The flavor's tolerations join the pod's, each once, as Kueue's podset merge appends them. */
    private static void addTolerations(ObjectNode podSpec, List<Toleration> tolerations) {
        if (tolerations.isEmpty()) {
            return;
        }
        ArrayNode present = array(podSpec, "tolerations");
        for (Toleration toleration : tolerations) {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            putIf(node, "key", toleration.key());
            putIf(node, "operator", toleration.operator());
            putIf(node, "value", toleration.value());
            putIf(node, "effect", toleration.effect());
            if (toleration.tolerationSeconds() != null) {
                node.put("tolerationSeconds", toleration.tolerationSeconds());
            }
            if (present.valueStream().noneMatch(node::equals)) {
                present.add(node);
            }
        }
    }

    private static void putIf(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }

    /**
     * Required node selector terms are ORed, so the pool expression goes into every existing
     * term (replacing an older pool expression, as on a hotswap), or into a new single term.
     */
    private static void restrictToPools(ObjectNode podSpec, CommandPayload payload) {
        ObjectNode required = object(object(object(podSpec, "affinity"), "nodeAffinity"),
                "requiredDuringSchedulingIgnoredDuringExecution");
        ArrayNode terms = array(required, "nodeSelectorTerms");
        if (terms.isEmpty()) {
            terms.addObject();
        }
        for (JsonNode term : terms) {
            ArrayNode expressions = array((ObjectNode) term, "matchExpressions");
            for (int i = expressions.size() - 1; i >= 0; i--) {
                if (GkeLabels.NODE_POOL.equals(expressions.get(i).path("key").asString(""))) {
                    expressions.remove(i);
                }
            }
            ObjectNode poolExpression = expressions.addObject();
            poolExpression.put("key", GkeLabels.NODE_POOL);
            poolExpression.put("operator", "In");
            ArrayNode values = poolExpression.putArray("values");
            payload.nodePools().forEach(values::add);
        }
    }

    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode child = parent.get(field);
        if (child instanceof ObjectNode existing) {
            return existing;
        }
        return parent.putObject(field);
    }

    private static ArrayNode array(ObjectNode parent, String field) {
        JsonNode child = parent.get(field);
        if (child instanceof ArrayNode existing) {
            return existing;
        }
        return parent.putArray(field);
    }
}
