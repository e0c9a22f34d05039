package dev.platform.web.queue;

import dev.platform.api.identity.Caller;

/**
 * What the queue page changes: a ClusterQueue's stopPolicy, the same operation as
 * {@code POST /api/v1/clusterqueues/{name}/stop[?drain=true]} and {@code resume}.
 */
public interface QueueCommands {

    /** Sets the stopPolicy ({@code None}, {@code Hold}, {@code HoldAndDrain}) as {@code caller}; false when no such queue. */
    boolean setStopPolicy(Caller caller, String clusterQueue, String stopPolicy);
}
