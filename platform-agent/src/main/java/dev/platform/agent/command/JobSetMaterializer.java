package dev.platform.agent.command;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.GkeLabels;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the manifest stored at submission into the JobSet the cluster runs: ownership labels on
 * the JobSet and on every pod template, the priority class, the flavor's node labels, and a
 * required node affinity on the assigned pools. With the exclusive-topology annotation, JobSet
 * then puts each replica on its own pool among those.
 */
final class JobSetMaterializer {

    static final String API_VERSION = "jobset.x-k8s.io/v1alpha2";
    static final String KIND = "JobSet";

    private JobSetMaterializer() {
    }

    /**
     * @param podAnnotations set on every pod template: the ProvisioningRequest whose capacity the pods consume and
     *                       its class, when the workload was admitted on provisioned capacity
     */
    static ObjectNode materialize(AgentCommand command, Map<String, String> podAnnotations) {
        CommandPayload payload = command.payload();
        ObjectNode jobSet = payload.manifest() instanceof ObjectNode manifest
                ? manifest.deepCopy()
                : JsonNodeFactory.instance.objectNode();
        jobSet.put("apiVersion", API_VERSION);
        jobSet.put("kind", KIND);
        jobSet.remove("status");
        ObjectNode metadata = object(jobSet, "metadata");
        for (String serverSet : new String[] {"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields"}) {
            metadata.remove(serverSet);
        }
        metadata.put("name", command.name());
        metadata.put("namespace", command.namespace());
        ownershipLabels(object(metadata, "labels"), command);
        object(metadata, "annotations").put(AgentProtocol.LAST_COMMAND_ANNOTATION, Long.toString(command.id()));
        ObjectNode spec = object(jobSet, "spec");
        spec.put("suspend", false);
        for (JsonNode replicatedJob : spec.path("replicatedJobs")) {
            if (replicatedJob instanceof ObjectNode job) {
                ObjectNode template = object(object(object(job, "template"), "spec"), "template");
                ownershipLabels(object(object(template, "metadata"), "labels"), command);
                if (!podAnnotations.isEmpty()) {
                    ObjectNode annotations = object(object(template, "metadata"), "annotations");
                    podAnnotations.forEach(annotations::put);
                }
                pin(object(template, "spec"), payload);
            }
        }
        return jobSet;
    }

    /** The part of a materialized JobSet that START and RESTART patch onto an existing one. */
    static ObjectNode patchFor(ObjectNode materialized) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.set("labels", materialized.path("metadata").path("labels"));
        metadata.set("annotations", materialized.path("metadata").path("annotations"));
        ObjectNode spec = patch.putObject("spec");
        spec.put("suspend", false);
        spec.set("replicatedJobs", materialized.path("spec").path("replicatedJobs"));
        return patch;
    }

    private static void ownershipLabels(ObjectNode labels, AgentCommand command) {
        labels.put(AgentProtocol.MANAGED_LABEL, "true");
        labels.put(AgentProtocol.WORKLOAD_UID_LABEL, command.workloadUid());
    }

    private static void pin(ObjectNode podSpec, CommandPayload payload) {
        if (payload.priorityClassName() != null) {
            podSpec.put("priorityClassName", payload.priorityClassName());
        }
        if (!payload.nodeLabels().isEmpty()) {
            ObjectNode nodeSelector = object(podSpec, "nodeSelector");
            payload.nodeLabels().forEach(nodeSelector::put);
        }
        if (!payload.nodePools().isEmpty()) {
            restrictToPools(podSpec, payload);
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
