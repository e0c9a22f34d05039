package dev.platform.api.manifest;

import java.util.List;
import java.util.Map;

/** A Kubernetes label selector; empty (no labels, no expressions) matches everything. */
public record LabelSelector(Map<String, String> matchLabels, List<Requirement> matchExpressions) {

    public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of());

    public LabelSelector {
        matchLabels = matchLabels == null ? Map.of() : Map.copyOf(matchLabels);
        matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
    }

    /** operator: In, NotIn, Exists, DoesNotExist; node affinity also Gt and Lt (one integer value). */
    public record Requirement(String key, String operator, List<String> values) {
        public Requirement {
            values = values == null ? List.of() : List.copyOf(values);
        }
    }
}
