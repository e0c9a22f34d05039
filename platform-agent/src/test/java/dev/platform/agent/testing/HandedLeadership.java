package dev.platform.agent.testing;

import dev.platform.agent.leadership.Leadership;

/** Leadership a test hands over: the replica takes part at once but leads only from {@link #lead()}. */
public final class HandedLeadership implements Leadership {

    private volatile boolean leader;
    private Runnable onStartedLeading = () -> { };
    private Runnable onStoppedLeading = () -> { };

    @Override
    public synchronized void start(Runnable onStartedLeading, Runnable onStoppedLeading) {
        this.onStartedLeading = onStartedLeading;
        this.onStoppedLeading = onStoppedLeading;
    }

    /** This replica wins the election now; returns once its start-of-leading callback has run. */
    public synchronized void lead() {
        leader = true;
        onStartedLeading.run();
    }

    @Override
    public boolean isLeader() {
        return leader;
    }

    @Override
    public synchronized void close() {
        if (leader) {
            leader = false;
            onStoppedLeading.run();
        }
    }
}
