package dev.platform.scheduler.core.model;

/** ClusterQueue {@code flavorFungibility}; Kueue's defaults are whenCanBorrow MayStopSearch, whenCanPreempt TryNextFlavor. */
public record FlavorFungibility(FungibilityPolicy whenCanBorrow, FungibilityPolicy whenCanPreempt,
                                FungibilityPreference preference) {

    public static final FlavorFungibility DEFAULT = new FlavorFungibility(
            FungibilityPolicy.MayStopSearch, FungibilityPolicy.TryNextFlavor, FungibilityPreference.BorrowingOverPreemption);

    public FlavorFungibility {
        whenCanBorrow = whenCanBorrow == null ? FungibilityPolicy.MayStopSearch : whenCanBorrow;
        whenCanPreempt = whenCanPreempt == null ? FungibilityPolicy.TryNextFlavor : whenCanPreempt;
        preference = preference == null ? FungibilityPreference.BorrowingOverPreemption : preference;
    }
}
