package dev.platform.agent.leadership;

/** Which replica of the agent acts: only the leader reports and executes commands. */
public interface Leadership extends AutoCloseable {

    /** Begins taking part in the election; the callbacks run on each gain and loss of leadership. */
    void start(Runnable onStartedLeading, Runnable onStoppedLeading);

    boolean isLeader();

    @Override
    void close();
}
