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
 */
public final class CandidateOrdering {

    private CandidateOrdering() {
    }

    public static Comparator<AdmittedWorkload> forPreemptorIn(String preemptorClusterQueue) {
        return Comparator.comparing((AdmittedWorkload w) -> !w.evicted())
                .thenComparing(w -> w.clusterQueue().equals(preemptorClusterQueue))
                .thenComparingInt(AdmittedWorkload::priority)
                .thenComparing(AdmittedWorkload::admittedAt, Comparator.reverseOrder())
                .thenComparing(AdmittedWorkload::uid);
    }
}
