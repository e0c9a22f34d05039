package dev.platform.api.manifest;

import java.util.List;
import java.util.Map;

/**
 * A ClusterQueue with Kueue's defaults applied. {@code cohort} is v1beta1's {@code spec.cohort} or
 * v1beta2's {@code spec.cohortName}; null when the queue stands alone. {@code admissionScope} is
 * null when the spec has none (no admission fair sharing). {@code annotations} are the queue's metadata
 * annotations; the platform reads those of {@link PreemptionAnnotations}. {@code admissionChecks} are v1beta1's
 * {@code spec.admissionChecks} (each for every flavor) or {@code spec.admissionChecksStrategy.admissionChecks}.
 */
public record ClusterQueueManifest(
        String name,
        String cohort,
        List<ResourceGroup> resourceGroups,
        QueueingStrategy queueingStrategy,
        LabelSelector namespaceSelector,
        FlavorFungibility flavorFungibility,
        Preemption preemption,
        FairSharing fairSharing,
        StopPolicy stopPolicy,
        AdmissionScope admissionScope,
        Map<String, String> annotations,
        List<AdmissionCheckRule> admissionChecks) implements ConfigManifest {

    public ClusterQueueManifest {
        resourceGroups = resourceGroups == null ? List.of() : List.copyOf(resourceGroups);
        queueingStrategy = queueingStrategy == null ? QueueingStrategy.BestEffortFIFO : queueingStrategy;
        namespaceSelector = namespaceSelector == null ? LabelSelector.EVERYTHING : namespaceSelector;
        flavorFungibility = flavorFungibility == null ? FlavorFungibility.DEFAULT : flavorFungibility;
        preemption = preemption == null ? Preemption.DEFAULT : preemption;
        fairSharing = fairSharing == null ? FairSharing.DEFAULT : fairSharing;
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
        annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
        admissionChecks = admissionChecks == null ? List.of() : List.copyOf(admissionChecks);
    }

    /** A ClusterQueue without admission checks. */
    public ClusterQueueManifest(String name, String cohort, List<ResourceGroup> resourceGroups,
                                QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                                FlavorFungibility flavorFungibility, Preemption preemption, FairSharing fairSharing,
                                StopPolicy stopPolicy, AdmissionScope admissionScope, Map<String, String> annotations) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                fairSharing, stopPolicy, admissionScope, annotations, null);
    }

    /** One admission check of the queue; {@code onFlavors} empty: whatever the flavors. */
    public record AdmissionCheckRule(String name, List<String> onFlavors) {
        public AdmissionCheckRule {
            onFlavors = onFlavors == null ? List.of() : List.copyOf(onFlavors);
        }
    }

    /** A ClusterQueue without annotations. */
    public ClusterQueueManifest(String name, String cohort, List<ResourceGroup> resourceGroups,
                                QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                                FlavorFungibility flavorFungibility, Preemption preemption, FairSharing fairSharing,
                                StopPolicy stopPolicy, AdmissionScope admissionScope) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                fairSharing, stopPolicy, admissionScope, null, null);
    }

    @Override
    public Kind kind() {
        return Kind.CLUSTER_QUEUE;
    }

    public enum QueueingStrategy { StrictFIFO, BestEffortFIFO }

    /** Kueue's {@code spec.admissionScope}: whether the LocalQueues' recent usage orders the pending workloads. */
    public record AdmissionScope(AdmissionMode admissionMode) {
    }

    public enum AdmissionMode { UsageBasedAdmissionFairSharing, NoAdmissionFairSharing }

    public enum StopPolicy { None, Hold, HoldAndDrain }

    /** v1beta1's {@code Borrow} and {@code Preempt} are read as {@code MayStopSearch}. */
    public enum FungibilityPolicy { MayStopSearch, TryNextFlavor }

    public enum FungibilityPreference { BorrowingOverPreemption, PreemptionOverBorrowing }

    /** Kueue defaults: whenCanBorrow MayStopSearch, whenCanPreempt TryNextFlavor, no preference. */
    public record FlavorFungibility(FungibilityPolicy whenCanBorrow, FungibilityPolicy whenCanPreempt,
                                    FungibilityPreference preference) {
        public static final FlavorFungibility DEFAULT =
                new FlavorFungibility(FungibilityPolicy.MayStopSearch, FungibilityPolicy.TryNextFlavor, null);

        public FlavorFungibility {
            whenCanBorrow = whenCanBorrow == null ? FungibilityPolicy.MayStopSearch : whenCanBorrow;
            whenCanPreempt = whenCanPreempt == null ? FungibilityPolicy.TryNextFlavor : whenCanPreempt;
        }
    }

    public enum WithinClusterQueue { Never, LowerPriority, LowerOrNewerEqualPriority }

    public enum ReclaimWithinCohort { Never, LowerPriority, Any }

    public enum BorrowWithinCohortPolicy { Never, LowerPriority }

    /** maxPriorityThreshold is null when not set. */
    public record BorrowWithinCohort(BorrowWithinCohortPolicy policy, Integer maxPriorityThreshold) {
        public static final BorrowWithinCohort NEVER = new BorrowWithinCohort(BorrowWithinCohortPolicy.Never, null);

        public BorrowWithinCohort {
            policy = policy == null ? BorrowWithinCohortPolicy.Never : policy;
        }
    }

    /** Kueue defaults: all Never. */
    public record Preemption(WithinClusterQueue withinClusterQueue, ReclaimWithinCohort reclaimWithinCohort,
                             BorrowWithinCohort borrowWithinCohort) {
        public static final Preemption DEFAULT =
                new Preemption(WithinClusterQueue.Never, ReclaimWithinCohort.Never, BorrowWithinCohort.NEVER);

        public Preemption {
            withinClusterQueue = withinClusterQueue == null ? WithinClusterQueue.Never : withinClusterQueue;
            reclaimWithinCohort = reclaimWithinCohort == null ? ReclaimWithinCohort.Never : reclaimWithinCohort;
            borrowWithinCohort = borrowWithinCohort == null ? BorrowWithinCohort.NEVER : borrowWithinCohort;
        }
    }
}
