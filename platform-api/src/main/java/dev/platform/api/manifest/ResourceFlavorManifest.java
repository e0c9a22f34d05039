package dev.platform.api.manifest;

import java.util.List;
import java.util.Map;

public record ResourceFlavorManifest(
        String name,
        Map<String, String> nodeLabels,
        List<Taint> nodeTaints,
        List<Toleration> tolerations,
        String topologyName) implements ConfigManifest {

    public ResourceFlavorManifest {
        nodeLabels = nodeLabels == null ? Map.of() : Map.copyOf(nodeLabels);
        nodeTaints = nodeTaints == null ? List.of() : List.copyOf(nodeTaints);
        tolerations = tolerations == null ? List.of() : List.copyOf(tolerations);
    }

    @Override
    public Kind kind() {
        return Kind.RESOURCE_FLAVOR;
    }

    /** A node taint: effect is NoSchedule, PreferNoSchedule or NoExecute. */
    public record Taint(String key, String value, String effect) {
    }

    /** operator is Equal or Exists; a null effect matches every effect. */
    public record Toleration(String key, String operator, String value, String effect, Long tolerationSeconds) {
    }
}
