package dev.platform.scheduler.core.model;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector: matchLabels AND every matchExpression. Empty selects everything. */
public record LabelSelector(Map<String, String> matchLabels, List<LabelRequirement> matchExpressions) {

    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    /** Kueue's absent (null) namespaceSelector: no namespace is eligible. An "In" with no values never matches. */
    public static final LabelSelector NOTHING =
            new LabelSelector(Map.of(), List.of(new LabelRequirement("kubernetes.io/metadata.name", "In", List.of())));

    public LabelSelector {
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }

    public boolean matches(Map<String, String> labels) {
        for (Map.Entry<String, String> e : matchLabels.entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        return matchExpressions.stream().allMatch(r -> r.matches(labels));
    }
}
