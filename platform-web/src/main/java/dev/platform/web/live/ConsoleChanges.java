package dev.platform.web.live;

/**
 * A port: a token that changes whenever what the console shows changes (a workload, a node pool's
 * health or placements, a hotswap phase, a cluster going stale). Read once a second; it must be
 * one cheap statement.
 */
public interface ConsoleChanges {

    String version();
}
