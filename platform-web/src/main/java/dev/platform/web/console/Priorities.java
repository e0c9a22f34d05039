package dev.platform.web.console;

/** A workload's priority as the pages show it: its priority class by name, with the value it gave. */
public final class Priorities {

    private Priorities() {
    }

    /** "high-priority-job (2000000)"; the value alone when no priority class set it. */
    public static String describe(String priorityClassName, int priority) {
        return priorityClassName == null ? String.valueOf(priority) : priorityClassName + " (" + priority + ")";
    }
}
