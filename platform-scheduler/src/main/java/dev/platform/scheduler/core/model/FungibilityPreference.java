package dev.platform.scheduler.core.model;

/** ClusterQueue {@code flavorFungibility.preference}: which is worse when no flavor fits plainly. */
public enum FungibilityPreference {
    BorrowingOverPreemption,
    PreemptionOverBorrowing
}
