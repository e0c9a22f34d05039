package dev.platform.scheduler.core.preemption;

import dev.platform.scheduler.core.model.AdmittedWorkload;
import dev.platform.scheduler.core.model.ClusterQueueSpec;
import dev.platform.scheduler.core.model.FlavorResource;
import dev.platform.scheduler.core.model.ReclaimWithinCohortPolicy;
import dev.platform.scheduler.core.model.WithinClusterQueuePolicy;
import dev.platform.scheduler.core.model.Workload;

import java.util.Set;

/** Whether a policy lets a preemptor preempt a candidate (preemption/common/preemption_policy.go). */
public final class PreemptionPolicies {

    private PreemptionPolicies() {
    }

    public static boolean allows(WithinClusterQueuePolicy policy, Workload preemptor, Workload candidate) {
        return switch (policy) {
            case Never -> false;
            case LowerPriority -> preemptor.priority() > candidate.priority();
            case LowerOrNewerEqualPriority -> preemptor.priority() > candidate.priority()
                    || (preemptor.priority() == candidate.priority() && preemptor.queuedAt().isBefore(candidate.queuedAt()));
        };
    }

    public static boolean allows(ReclaimWithinCohortPolicy policy, Workload preemptor, Workload candidate) {
        return switch (policy) {
            case Never -> false;
            case LowerPriority -> preemptor.priority() > candidate.priority();
            case Any -> true;
        };
    }

    /** The policy that applies to a candidate: withinClusterQueue for the own queue, reclaimWithinCohort otherwise. */
    public static boolean allows(ClusterQueueSpec preemptorQueue, Workload preemptor, AdmittedWorkload candidate) {
        if (candidate.clusterQueue().equals(preemptorQueue.name())) {
            return allows(preemptorQueue.preemption().withinClusterQueue(), preemptor, candidate.workload());
        }
        return allows(preemptorQueue.preemption().reclaimWithinCohort(), preemptor, candidate.workload());
    }

    /** Only workloads holding one of the contested flavor-resources can help (classical.WorkloadUsesResources). */
    public static boolean usesAny(AdmittedWorkload w, Set<FlavorResource> frs) {
        for (FlavorResource fr : frs) {
            if (w.usage().containsKey(fr)) {
                return true;
            }
        }
        return false;
    }
}
