package dev.platform.scheduler.core.model;

/** A pod toleration; operator Equal (default) or Exists, empty key with Exists tolerates everything. */
public record Toleration(String key, String operator, String value, String effect) {

    public boolean tolerates(Taint taint) {
        if (effect != null && !effect.isEmpty() && !effect.equals(taint.effect())) {
            return false;
        }
        boolean exists = "Exists".equals(operator);
        if (key == null || key.isEmpty()) {
            return exists;
        }
        if (!key.equals(taint.key())) {
            return false;
        }
        return exists || nullToEmpty(value).equals(nullToEmpty(taint.value()));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
