package dev.platform.agent.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.ProvisioningRequestReport;
import dev.platform.api.agent.ProvisioningRequestSpec;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code autoscaling.x-k8s.io/v1} ProvisioningRequest and {@code v1} PodTemplate objects of a request, as
 * Kueue's provisioning controller writes them (labels {@code kueue.x-k8s.io/managed}, the class and parameters, one
 * pod set per PodTemplate with its count, the PodTemplates owned by the request), with the platform's labels that
 * name the workload and check; and a request read back. The owner of the request is the workload's JobSet when it
 * exists in the cluster (an owner that does not exist would have the request garbage-collected at once); otherwise
 * the agent deletes the request itself when the workload no longer holds quota.
 */
public final class ProvisioningRequestObjects {

    public static final String API_VERSION = "autoscaling.x-k8s.io/v1";
    public static final String KIND = "ProvisioningRequest";
    static final String ATTEMPT_ANNOTATION = "platform.dev/provisioning-attempt";

    private ProvisioningRequestObjects() {
    }

    public static ObjectNode podTemplate(ProvisioningRequestSpec request, ProvisioningRequestSpec.PodSet podSet) {
        ObjectNode template = JsonNodeFactory.instance.objectNode();
        template.put("apiVersion", "v1");
        template.put("kind", "PodTemplate");
        ObjectNode metadata = template.putObject("metadata");
        metadata.put("name", podSet.podTemplateName());
        metadata.put("namespace", request.namespace());
        labels(metadata, request);
        template.set("template", podSet.template() == null ? JsonNodeFactory.instance.objectNode()
                : podSet.template().deepCopy());
        return template;
    }

    /** @param jobSetUid the uid of the workload's JobSet in the cluster, the request's owner; null when absent */
    public static ObjectNode provisioningRequest(ProvisioningRequestSpec request, String jobSetUid) {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        object.put("apiVersion", API_VERSION);
        object.put("kind", KIND);
        ObjectNode metadata = object.putObject("metadata");
        metadata.put("name", request.name());
        metadata.put("namespace", request.namespace());
        labels(metadata, request);
        metadata.putObject("annotations").put(ATTEMPT_ANNOTATION, Integer.toString(request.attempt()));
        if (jobSetUid != null) {
            ObjectNode owner = metadata.putArray("ownerReferences").addObject();
            owner.put("apiVersion", "jobset.x-k8s.io/v1alpha2");
            owner.put("kind", "JobSet");
            owner.put("name", request.workloadName());
            owner.put("uid", jobSetUid);
            owner.put("controller", true);
        }
        ObjectNode spec = object.putObject("spec");
        spec.put("provisioningClassName", request.provisioningClassName());
        ObjectNode parameters = spec.putObject("parameters");
        request.parameters().forEach(parameters::put);
        for (ProvisioningRequestSpec.PodSet podSet : request.podSets()) {
            ObjectNode entry = spec.withArray("podSets").addObject();
            entry.putObject("podTemplateRef").put("name", podSet.podTemplateName());
            entry.put("count", podSet.count());
        }
        return object;
    }

    /** The merge patch that makes the request {@code name} (uid {@code uid}) a PodTemplate's controller. */
    public static ObjectNode ownedBy(String name, String uid) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode owner = patch.putObject("metadata").putArray("ownerReferences").addObject();
        owner.put("apiVersion", API_VERSION);
        owner.put("kind", KIND);
        owner.put("name", name);
        owner.put("uid", uid);
        owner.put("controller", true);
        owner.put("blockOwnerDeletion", true);
        return patch;
    }

    private static void labels(ObjectNode metadata, ProvisioningRequestSpec request) {
        ObjectNode labels = metadata.putObject("labels");
        labels.put(AgentProtocol.KUEUE_MANAGED_LABEL, "true");
        labels.put(AgentProtocol.MANAGED_LABEL, "true");
        labels.put(AgentProtocol.WORKLOAD_UID_LABEL, request.workloadUid());
        labels.put(AgentProtocol.ADMISSION_CHECK_LABEL, request.admissionCheck());
    }

    /** A request as the API server serves it. */
    public static ClusterProvisioningRequest read(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        JsonNode labels = metadata.path("labels");
        List<String> podTemplates = new ArrayList<>();
        object.path("spec").path("podSets").forEach(p -> podTemplates.add(p.path("podTemplateRef").path("name").asString()));
        List<ProvisioningRequestReport.Condition> conditions = new ArrayList<>();
        for (JsonNode c : object.path("status").path("conditions")) {
            conditions.add(new ProvisioningRequestReport.Condition(c.path("type").asString(null),
                    c.path("status").asString(null), c.path("reason").asString(null), c.path("message").asString(null),
                    instant(c.path("lastTransitionTime").asString(null))));
        }
        return new ClusterProvisioningRequest(metadata.path("namespace").asString(null),
                metadata.path("name").asString(null), labels.path(AgentProtocol.WORKLOAD_UID_LABEL).asString(null),
                labels.path(AgentProtocol.ADMISSION_CHECK_LABEL).asString(null),
                metadata.path("annotations").path(ATTEMPT_ANNOTATION).asInt(0),
                object.path("spec").path("provisioningClassName").asString(null), podTemplates, conditions);
    }

    private static Instant instant(String value) {
        try {
            return value == null ? null : Instant.parse(value);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
