package dev.platform.scheduler.config;

/** Who makes a change, for the audit trail. Authentication (a later issue) will name the caller. */
final class Actors {

    static final String ANONYMOUS = "anonymous";

    private Actors() {
    }

    static String current() {
        return ANONYMOUS;
    }
}
