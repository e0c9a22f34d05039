package dev.platform.scheduler.core;

import java.util.List;
import java.util.Map;

/**
 * One requirement of a label selector or of a required node-affinity term
 * ({@code key}, {@code operator} In | NotIn | Exists | DoesNotExist, {@code values}).
 */
public record LabelRequirement(String key, String operator, List<String> values) {

    public LabelRequirement {
        values = values == null ? List.of() : List.copyOf(values);
    }

    public boolean matches(Map<String, String> labels) {
        String value = labels.get(key);
        return switch (operator) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            default -> throw new IllegalArgumentException("unknown operator " + operator);
        };
    }
}
