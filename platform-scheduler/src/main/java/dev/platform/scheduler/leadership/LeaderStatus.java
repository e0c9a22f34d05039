package dev.platform.scheduler.leadership;

/**
 * Whether this replica leads scheduling: what the leader alone does (samples usage, deletes history past
 * its retention) asks it, without depending on the scheduling loop that answers it.
 */
@FunctionalInterface
public interface LeaderStatus {

    boolean isLeader();
}
