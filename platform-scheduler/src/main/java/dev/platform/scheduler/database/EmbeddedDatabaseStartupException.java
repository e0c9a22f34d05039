package dev.platform.scheduler.database;

/**
 * The embedded PostgreSQL cannot start, for a reason the operator can fix: what is wrong and what
 * to do, printed as Spring Boot's short start-up failure report (no stack trace).
 */
public class EmbeddedDatabaseStartupException extends RuntimeException {

    private final String action;

    public EmbeddedDatabaseStartupException(String description, String action) {
        this(description, action, null);
    }

    public EmbeddedDatabaseStartupException(String description, String action, Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    public String action() {
        return action;
    }
}
