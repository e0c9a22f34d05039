package dev.platform.agent.cluster;

import dev.platform.api.agent.AgentProtocol;
import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A JobSet (jobset.x-k8s.io/v1alpha2) as the agent sees it. {@code terminalState} is
 * status.terminalState (Completed or Failed) or null while it runs; {@code manifest} is the whole object.
 */
public record ClusterJobSet(
        String namespace,
        String name,
        String uid,
        Map<String, String> labels,
        Map<String, String> annotations,
        boolean suspended,
        String terminalState,
        JsonNode manifest) {

    public ClusterJobSet {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
    }

    /** Reads the fields the agent uses from a JobSet object as the API server serves it. */
    public static ClusterJobSet of(JsonNode manifest) {
        JsonNode metadata = manifest.path("metadata");
        String terminalState = manifest.path("status").path("terminalState").asString(null);
        return new ClusterJobSet(metadata.path("namespace").asString(null), metadata.path("name").asString(null),
                metadata.path("uid").asString(null), strings(metadata.path("labels")), strings(metadata.path("annotations")),
                manifest.path("spec").path("suspend").asBoolean(false), terminalState, manifest);
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> values = new HashMap<>();
        object.properties().forEach(e -> values.put(e.getKey(), e.getValue().asString()));
        return values;
    }

    public String key() {
        return namespace + "/" + name;
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
