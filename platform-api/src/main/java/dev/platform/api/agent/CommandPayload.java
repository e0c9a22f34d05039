package dev.platform.api.agent;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * What START and RESTART need to materialize a workload: the JobSet as submitted, the priority
 * class to set on its pod templates, the node pools admission assigned (one per replica of an
 * exclusive-topology JobSet) and the flavor's node labels. Null for STOP and DELETE.
 */
public record CommandPayload(
        JsonNode manifest,
        String priorityClassName,
        List<String> nodePools,
        Map<String, String> nodeLabels,
        String flavor) {

    public CommandPayload {
        nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
    }
}
