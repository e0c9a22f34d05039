package dev.platform.web.live;

import java.util.Optional;
import java.util.Set;

/**
 * A port: a token that changes whenever what the console shows a caller changes. Read once a second for
 * each scope that a connected browser has; it must be one cheap statement per scope.
 */
public interface ConsoleChanges {

    /**
     * The token for a caller who reads {@code namespaces} (empty: every namespace, as Ops and Admins do):
     * for every namespace, the workloads, node pools' health and placements, hotswap phases and clusters
     * going stale; for some namespaces, their workloads and the counts of the ClusterQueues that serve them.
     */
    String version(Optional<Set<String>> namespaces);
}
