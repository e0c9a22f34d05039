package dev.platform.scheduler.kubernetes.registry;

import java.util.Map;
import java.util.function.Function;

/**
 * One column of {@code kubectl get}, as a CRD's {@code additionalPrinterColumns} declares it: {@code jsonPath} into
 * the object, {@code type} (string, integer, number, boolean, date) and {@code priority} 0 for the default view, 1 for
 * {@code -o wide} only.
 */
public record PrinterColumn(String name, String type, String jsonPath, String description, int priority,
                            Function<Map<String, Object>, Object> computed) {

    public static PrinterColumn column(String name, String type, String jsonPath, String description) {
        return new PrinterColumn(name, type, jsonPath, description, 0, null);
    }

    public static PrinterColumn wide(String name, String type, String jsonPath, String description) {
        return new PrinterColumn(name, type, jsonPath, description, 1, null);
    }

    /** A column of a built-in kind that kube-apiserver computes rather than reads at a path (a Job's COMPLETIONS). */
    public static PrinterColumn computed(String name, String type, String description, int priority,
                                        Function<Map<String, Object>, Object> value) {
        return new PrinterColumn(name, type, null, description, priority, value);
    }

    /** The AGE column every resource has. */
    public static PrinterColumn age() {
        return column("Age", "date", ".metadata.creationTimestamp",
                "CreationTimestamp is a timestamp representing the server time when this object was created.");
    }
}
