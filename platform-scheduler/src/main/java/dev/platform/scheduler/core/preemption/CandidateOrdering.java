package dev.platform.scheduler.core.preemption;

import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.PreemptionOrder;
import dev.platform.scheduler.core.quota.Snapshot;

import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Kueue's CandidatesOrdering (preemption/common/ordering.go), in this order:
 * <ol>
 *   <li>workloads already being evicted first (their quota is about to come back anyway);</li>
 *   <li>workloads of other ClusterQueues before the preemptor's own;</li>
 *   <li>under admission fair sharing, of two workloads of one such ClusterQueue from different LocalQueues, the one
 *       whose LocalQueue has the higher usage first;</li>
 *   <li>lower priority first;</li>
 *   <li>most recently admitted first (least work lost); where the preemptor's ClusterQueue says
 *       {@code platform.dev/preemption-order: LeastLostWork}, the least lost work at the snapshot's time first, and
 *       the most recently admitted only among equal losses ({@link PreemptionOrder});</li>
 *   <li>uid, so that the order is total and deterministic.</li>
 * </ol>
 * Written out by hand rather than as a comparator chain: it runs some 10^5 times per preemption over 10^4
 * candidates, and boxing in a chain of key extractors costs more than the search itself. LocalQueue usage is read
 * once per candidate and only when admission fair sharing is on; lost work likewise, only under LeastLostWork.
 */
public final class CandidateOrdering implements Comparator<AdmittedWorkload> {

    private final String preemptorClusterQueue;
    private final Snapshot snapshot;
    private final PreemptionOrder equalPriority;
    private final Map<AdmittedWorkload, Double> usage;
    private final Map<AdmittedWorkload, Double> lostWork;
    private final ToDoubleFunction<AdmittedWorkload> lostWorkOf = this::lostWork;

    private CandidateOrdering(String preemptorClusterQueue, Snapshot snapshot) {
        this.preemptorClusterQueue = preemptorClusterQueue;
        this.snapshot = snapshot;
        ClusterQueueSpec preemptorQueue = snapshot.clusterQueue(preemptorClusterQueue);
        this.equalPriority = preemptorQueue == null ? PreemptionOrder.MostRecentlyAdmitted
                : preemptorQueue.preemptionOrder();
        this.usage = snapshot.admissionFairSharing() ? new IdentityHashMap<>() : null;
        this.lostWork = equalPriority == PreemptionOrder.LeastLostWork ? new IdentityHashMap<>() : null;
    }

    public static CandidateOrdering forPreemptorIn(String preemptorClusterQueue, Snapshot snapshot) {
        return new CandidateOrdering(preemptorClusterQueue, snapshot);
    }

    @Override
    public int compare(AdmittedWorkload a, AdmittedWorkload b) {
        if (a.evicted() != b.evicted()) {
            return a.evicted() ? -1 : 1;
        }
        boolean aOwn = a.clusterQueue().equals(preemptorClusterQueue);
        boolean bOwn = b.clusterQueue().equals(preemptorClusterQueue);
        if (aOwn != bOwn) {
            return aOwn ? 1 : -1;
        }
        int c = usage == null ? 0 : byLocalQueueUsage(a, b);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(a.priority(), b.priority());
        if (c != 0) {
            return c;
        }
        c = equalPriority.compareEqualPriority(a, b, AdmittedWorkload::admittedAt, lostWorkOf);
        if (c != 0) {
            return c;
        }
        return a.uid().compareTo(b.uid());
    }

    /** Kueue's resourceUsagePreemptionEnabled: same ClusterQueue, different LocalQueues, both with a usage. */
    private int byLocalQueueUsage(AdmittedWorkload a, AdmittedWorkload b) {
        if (!a.clusterQueue().equals(b.clusterQueue())
                || (a.workload().localQueue().equals(b.workload().localQueue())
                    && a.workload().namespace().equals(b.workload().namespace()))) {
            return 0;
        }
        double aUsage = usage.computeIfAbsent(a, snapshot::localQueueUsage);
        double bUsage = usage.computeIfAbsent(b, snapshot::localQueueUsage);
        if (Double.isNaN(aUsage) || Double.isNaN(bUsage)) {
            return 0;
        }
        return Double.compare(bUsage, aUsage);
    }

    private double lostWork(AdmittedWorkload w) {
        return lostWork.computeIfAbsent(w, snapshot::lostWork);
    }
}
