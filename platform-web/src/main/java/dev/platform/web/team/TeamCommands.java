package dev.platform.web.team;

import dev.platform.api.identity.Caller;

/**
 * What the team page changes: a LocalQueue's stopPolicy, the same operation as
 * {@code POST /api/v1/namespaces/{namespace}/localqueues/{name}/stop[?drain=true]} and {@code resume}.
 */
public interface TeamCommands {

    /**
     * Sets the stopPolicy ({@code None}, {@code Hold}, {@code HoldAndDrain}) of LocalQueue {@code namespace/name} as
     * {@code caller}; false when no such queue.
     */
    boolean setStopPolicy(Caller caller, String namespace, String localQueue, String stopPolicy);
}
