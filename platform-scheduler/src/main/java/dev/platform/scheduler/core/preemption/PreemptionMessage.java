package dev.platform.scheduler.core.preemption;

/**
 * The message a preemption victim's Evicted and Preempted conditions and the audit row carry, as Kueue writes it
 * ({@code preemption.go}: "Preempted to accommodate a workload (UID: ...) due to ..."), for every kind of
 * preemption: the cycle's, a hotswap's and a priority-only placement's.
 */
public final class PreemptionMessage {

    private PreemptionMessage() {
    }

    /**
     * @param preemptorUid  the workload that takes the victim's place
     * @param dueTo         why, as a phrase ("reclamation within the cohort", "hotswap after ...")
     * @param preemptorPath the preemptor's queue path in its cohort tree
     * @param preempteePath the victim's queue path
     */
    public static String of(String preemptorUid, String dueTo, String preemptorPath, String preempteePath) {
        return "Preempted to accommodate a workload (UID: " + preemptorUid + ") due to " + dueTo
                + "; preemptor path: " + preemptorPath + "; preemptee path: " + preempteePath;
    }
}
