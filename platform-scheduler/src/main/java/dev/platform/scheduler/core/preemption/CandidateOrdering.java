package dev.platform.scheduler.core.preemption;

import dev.platform.scheduler.core.AdmittedWorkload;

import java.util.Comparator;

/**
 * Kueue's CandidatesOrdering (preemption/common/ordering.go), in this order:
 * <ol>
 *   <li>workloads already being evicted first (their quota is about to come back anyway);</li>
 *   <li>workloads of other ClusterQueues before the preemptor's own;</li>
 *   <li>lower priority first;</li>
 *   <li>most recently admitted first (least work lost);</li>
 *   <li>uid, so that the order is total and deterministic.</li>
 * </ol>
 * Written out by hand rather than as a comparator chain: it runs some 10^5 times per preemption over 10^4
 * candidates, and boxing in a chain of key extractors costs more than the search itself.
 */
public final class CandidateOrdering {

    private CandidateOrdering() {
    }

    public static Comparator<AdmittedWorkload> forPreemptorIn(String preemptorClusterQueue) {
        return (a, b) -> compare(a, b, preemptorClusterQueue);
    }

    static int compare(AdmittedWorkload a, AdmittedWorkload b, String preemptorClusterQueue) {
        if (a.evicted() != b.evicted()) {
            return a.evicted() ? -1 : 1;
        }
        boolean aOwn = a.clusterQueue().equals(preemptorClusterQueue);
        boolean bOwn = b.clusterQueue().equals(preemptorClusterQueue);
        if (aOwn != bOwn) {
            return aOwn ? 1 : -1;
        }
        int c = Integer.compare(a.priority(), b.priority());
        if (c != 0) {
            return c;
        }
        c = b.admittedAt().compareTo(a.admittedAt());
        if (c != 0) {
            return c;
        }
        return a.uid().compareTo(b.uid());
    }
}
