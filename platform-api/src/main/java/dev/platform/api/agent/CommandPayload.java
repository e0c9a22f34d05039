package dev.platform.api.agent;

import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * What START and RESTART need to materialize a workload: the JobSet or Job as submitted, the priority
 * class to set on its pod templates, the node pools admission assigned (one per replica of an
 * exclusive-topology JobSet), and the flavor's node labels and tolerations, which Kueue injects into the pod
 * templates of a job it starts. Null for STOP and DELETE. A scheduler of an earlier version sends no tolerations.
 */
public record CommandPayload(
        JsonNode manifest,
        String priorityClassName,
        List<String> nodePools,
        Map<String, String> nodeLabels,
        String flavor,
        List<Toleration> tolerations) {

    public CommandPayload {
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    /** A payload whose flavor has no tolerations. */
    public CommandPayload(JsonNode manifest, String priorityClassName, List<String> nodePools,
                          Map<String, String> nodeLabels, String flavor) {
        this(manifest, priorityClassName, nodePools, nodeLabels, flavor, List.of());
    }
}
