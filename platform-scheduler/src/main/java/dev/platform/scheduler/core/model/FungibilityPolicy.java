package dev.platform.scheduler.core.model;

/** ClusterQueue {@code flavorFungibility.whenCanBorrow} and {@code whenCanPreempt}. */
public enum FungibilityPolicy {
    /** Stop at the first flavor where the workload can borrow (resp. preempt). v1beta1's Borrow/Preempt. */
    MayStopSearch,
    /** Look at the next flavors for a better fit. */
    TryNextFlavor
}
