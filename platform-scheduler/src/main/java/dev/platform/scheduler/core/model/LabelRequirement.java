package dev.platform.scheduler.core.model;

import java.util.List;
import java.util.Map;

/**
 * One requirement of a label selector or of a required node-affinity term
 * ({@code key}, {@code operator} In | NotIn | Exists | DoesNotExist, and Gt | Lt for node affinity,
 * {@code values}).
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
            case "Gt", "Lt" -> comparesAsInteger(value);
            default -> throw new IllegalArgumentException("unknown operator " + operator);
        };
    }

    /** Node affinity's Gt and Lt: the label's integer value against the single integer given. */
    private boolean comparesAsInteger(String value) {
        Long label = integer(value);
        Long bound = values.isEmpty() ? null : integer(values.get(0));
        if (label == null || bound == null) {
            return false;
        }
        return operator.equals("Gt") ? label > bound : label < bound;
    }

    private static Long integer(String text) {
        if (text == null) {
            return null;
        }
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
