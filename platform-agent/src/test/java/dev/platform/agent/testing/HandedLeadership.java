package dev.platform.agent.testing;

import dev.platform.agent.leadership.Leadership;
import dev.platform.agent.leadership.SoleReplica;

/** Leadership a test hands over: the replica takes part at once but leads, as a sole replica, only from {@link #lead()}. */
public final class HandedLeadership implements Leadership {

    private final SoleReplica replica = new SoleReplica();
    private Runnable onStartedLeading;
    private Runnable onStoppedLeading;

    @Override
    public synchronized void start(Runnable onStartedLeading, Runnable onStoppedLeading) {
        this.onStartedLeading = onStartedLeading;
        this.onStoppedLeading = onStoppedLeading;
    }

    /** This replica wins the election now; returns once its start-of-leading callback has run. */
    public synchronized void lead() {
        replica.start(onStartedLeading, onStoppedLeading);
    }

    @Override
    public boolean isLeader() {
        return replica.isLeader();
    }

    @Override
    public void close() {
        replica.close();
    }
}
