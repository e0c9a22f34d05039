package dev.platform.agent.leadership;

/** The only replica leads at once: the simulated cluster and an agent inside the scheduler. */
public class SoleReplica implements Leadership {

    private volatile boolean leader;
    private Runnable onStoppedLeading = () -> { };

    @Override
    public void start(Runnable onStartedLeading, Runnable onStoppedLeading) {
        this.onStoppedLeading = onStoppedLeading;
        leader = true;
        onStartedLeading.run();
    }

    @Override
    public boolean isLeader() {
        return leader;
    }

    @Override
    public void close() {
        if (leader) {
            leader = false;
            onStoppedLeading.run();
        }
    }
}
