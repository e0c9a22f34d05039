package dev.platform.scheduler.core.model;

import java.util.List;
import java.util.Map;

/** A ResourceFlavor: the node labels a workload must be able to land on and the taints it must tolerate. */
public record ResourceFlavor(String name, Map<String, String> nodeLabels, List<Taint> nodeTaints) {

    public ResourceFlavor {
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        nodeTaints = nodeTaints == null ? List.of() : List.copyOf(nodeTaints);
    }
}
