package dev.platform.api.agent;

public enum CommandStatus {
    SUCCEEDED,
    FAILED,
    /** not executed: received after {@code expiresAt}. */
    REFUSED_EXPIRED,
    /** not final: progress report while the agent keeps trying (e.g. evictions blocked by a PodDisruptionBudget). */
    RETRYING;

    /** Only a final result acknowledges the command; the scheduler redelivers until then. */
    public boolean isFinal() {
        return this != RETRYING;
    }
}
