package dev.platform.agent.cluster;

import dev.platform.api.agent.AgentProtocol;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A suspendable workload object, a JobSet or a batch Job ({@link JobKind}), as the agent sees it.
 * {@code terminalState} is Completed or Failed once it ended (a JobSet's status.terminalState, a Job's Complete or
 * Failed condition), null while it runs; {@code manifest} is the whole object.
 */
public record ClusterJob(
        JobKind kind,
        String namespace,
        String name,
        String uid,
        Map<String, String> labels,
        Map<String, String> annotations,
        boolean suspended,
        String terminalState,
        JsonNode manifest) {

    public ClusterJob {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** Reads the fields the agent uses from an object of that kind as the API server serves it. */
    public static ClusterJob of(JobKind kind, JsonNode manifest) {
        JsonNode metadata = manifest.path("metadata");
        return new ClusterJob(kind, metadata.path("namespace").asString(null), metadata.path("name").asString(null),
                metadata.path("uid").asString(null), strings(metadata.path("labels")), strings(metadata.path("annotations")),
                manifest.path("spec").path("suspend").asBoolean(false), terminalState(kind, manifest.path("status")), manifest);
    }

    /** Reads a JobSet. */
    public static ClusterJob of(JsonNode jobSet) {
        return of(JobKind.JOBSET, jobSet);
    }

    /** Of a Job, its condition Complete or Failed (status True) is its end, as Kueue's job integration reads it. */
    private static String terminalState(JobKind kind, JsonNode status) {
        if (kind == JobKind.JOBSET) {
            return status.path("terminalState").asString(null);
        }
        for (JsonNode condition : status.path("conditions")) {
            if ("True".equals(condition.path("status").asString(null))) {
                switch (condition.path("type").asString("")) {
                    case "Complete" -> {
                        return "Completed";
                    }
                    case "Failed" -> {
                        return "Failed";
                    }
                    default -> {
                    }
                }
            }
        }
        return null;
    }

    /**
     * A Job made by a JobSet's controller (its controller owner is a JobSet): the JobSet is the workload, queued
     * and started as a whole, so its Jobs are none of the agent's, as Kueue leaves the children of what it manages.
     */
    public boolean ownedByJobSet() {
        for (JsonNode owner : manifest.path("metadata").path("ownerReferences")) {
            if (owner.path("controller").asBoolean(false) && JobKind.JOBSET.kind().equals(owner.path("kind").asString(null))
                    && owner.path("apiVersion").asString("").startsWith(JobKind.JOBSET.group() + "/")) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> values = new HashMap<>();
        object.properties().forEach(e -> values.put(e.getKey(), e.getValue().asString()));
        return values;
    }

    public String key() {
        return kind.key(namespace, name);
    }

    /** Null unless the platform materialized it. */
    public String workloadUid() {
        return "true".equals(labels.get(AgentProtocol.MANAGED_LABEL)) ? labels.get(AgentProtocol.WORKLOAD_UID_LABEL) : null;
    }

    /** Kueue reads the queue name from the label, older manifests carry it as an annotation. */
    public String queueName() {
        String label = labels.get(AgentProtocol.QUEUE_NAME_LABEL);
        return label != null ? label : annotations.get(AgentProtocol.QUEUE_NAME_LABEL);
    }

    /** A Kueue-style submission made directly in the cluster: suspended, queued, not ours yet. */
    public boolean isAdoptable() {
        return suspended && queueName() != null && workloadUid() == null;
    }

    public String lastCommandId() {
        return annotations.get(AgentProtocol.LAST_COMMAND_ANNOTATION);
    }
}
