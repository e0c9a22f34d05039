package dev.platform.scheduler.core.model;

import java.util.List;

/**
 * A ClusterQueue as the core needs it. {@code cohort} is null for a standalone queue. As in Kueue, a null
 * {@code namespaceSelector} selects no namespace and an empty one ({@link LabelSelector#EVERYTHING}) every namespace.
 * A null {@code admissionMode} (no admissionScope) is {@link AdmissionMode#NoAdmissionFairSharing}; a null
 * {@code victimProtection} is {@link VictimProtection#NONE}, and a null {@code preemptionOrder} Kueue's
 * {@link PreemptionOrder#MostRecentlyAdmitted}: the order of candidates of equal priority in this queue's preemption
 * searches. A null {@code admissionChecks} is {@link AdmissionCheckStrategy#NONE}: admissions are final at once.
 */
public record ClusterQueueSpec(String name, String cohort, List<ResourceGroup> resourceGroups,
                               QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                               FlavorFungibility flavorFungibility, PreemptionPolicy preemption,
                               double fairWeight, StopPolicy stopPolicy, AdmissionMode admissionMode,
                               VictimProtection victimProtection, PreemptionOrder preemptionOrder,
                               AdmissionCheckStrategy admissionChecks) {

    public ClusterQueueSpec {
        resourceGroups = List.copyOf(resourceGroups);
        queueingStrategy = queueingStrategy == null ? QueueingStrategy.BestEffortFIFO : queueingStrategy;
        namespaceSelector = namespaceSelector == null ? LabelSelector.NOTHING : namespaceSelector;
        flavorFungibility = flavorFungibility == null ? FlavorFungibility.DEFAULT : flavorFungibility;
        preemption = preemption == null ? PreemptionPolicy.NEVER : preemption;
        stopPolicy = stopPolicy == null ? StopPolicy.None : stopPolicy;
        admissionMode = admissionMode == null ? AdmissionMode.NoAdmissionFairSharing : admissionMode;
        victimProtection = victimProtection == null ? VictimProtection.NONE : victimProtection;
        preemptionOrder = preemptionOrder == null ? PreemptionOrder.MostRecentlyAdmitted : preemptionOrder;
        admissionChecks = admissionChecks == null ? AdmissionCheckStrategy.NONE : admissionChecks;
    }

    /** A ClusterQueue without admission checks. */
    public ClusterQueueSpec(String name, String cohort, List<ResourceGroup> resourceGroups,
                            QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                            FlavorFungibility flavorFungibility, PreemptionPolicy preemption,
                            double fairWeight, StopPolicy stopPolicy, AdmissionMode admissionMode,
                            VictimProtection victimProtection, PreemptionOrder preemptionOrder) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                fairWeight, stopPolicy, admissionMode, victimProtection, preemptionOrder, null);
    }

    /** The same ClusterQueue with other admission checks. */
    public ClusterQueueSpec withAdmissionChecks(AdmissionCheckStrategy checks) {
        return new ClusterQueueSpec(name, cohort, resourceGroups, queueingStrategy, namespaceSelector,
                flavorFungibility, preemption, fairWeight, stopPolicy, admissionMode, victimProtection,
                preemptionOrder, checks);
    }

    /** A ClusterQueue whose admitted workloads have no protection from preemption, ordered as Kueue orders them. */
    public ClusterQueueSpec(String name, String cohort, List<ResourceGroup> resourceGroups,
                            QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                            FlavorFungibility flavorFungibility, PreemptionPolicy preemption,
                            double fairWeight, StopPolicy stopPolicy, AdmissionMode admissionMode) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                fairWeight, stopPolicy, admissionMode, null, null);
    }

    /** A ClusterQueue without an admission scope. */
    public ClusterQueueSpec(String name, String cohort, List<ResourceGroup> resourceGroups,
                            QueueingStrategy queueingStrategy, LabelSelector namespaceSelector,
                            FlavorFungibility flavorFungibility, PreemptionPolicy preemption,
                            double fairWeight, StopPolicy stopPolicy) {
        this(name, cohort, resourceGroups, queueingStrategy, namespaceSelector, flavorFungibility, preemption,
                fairWeight, stopPolicy, null, null, null, null);
    }

    /** The resource group covering {@code resource}, if any. */
    public java.util.Optional<ResourceGroup> groupFor(String resource) {
        return resourceGroups.stream().filter(g -> g.coveredResources().contains(resource)).findFirst();
    }
}
