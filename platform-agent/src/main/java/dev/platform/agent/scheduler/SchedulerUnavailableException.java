package dev.platform.agent.scheduler;

/** The scheduler could not be reached or answered with an error; the caller backs off and retries. */
public class SchedulerUnavailableException extends Exception {

    public SchedulerUnavailableException(String message) {
        super(message);
    }

    public SchedulerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
