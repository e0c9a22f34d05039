package dev.platform.agent.scheduler;

/** The scheduler could not be reached or answered with an error; the caller backs off and retries. */
public class SchedulerUnavailableException extends Exception {

    public SchedulerUnavailableException(String message) {
        super(message);
    }

    public SchedulerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * True when nothing answered (no connection, or it broke): {@link SchedulerReachability} says so once; false
     * when the scheduler answered with an error, which each retry is worth a warning for.
     */
    public boolean unreachable() {
        return getCause() instanceof java.io.IOException;
    }
}
