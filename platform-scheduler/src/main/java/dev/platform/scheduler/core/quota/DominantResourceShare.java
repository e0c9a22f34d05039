package dev.platform.scheduler.core.quota;

import dev.platform.scheduler.core.model.FlavorResource;
import java.util.Set;

/**
 * Kueue's DRS (cache/scheduler/fair_sharing.go): max over resources of borrowed * 1000 / lendable, divided by the
 * fair weight. A node borrowing with weight 0 ranks above every other node.
 */
public record DominantResourceShare(double fairWeight, double unweightedRatio, String dominantResource,
                                    Set<FlavorResource> borrowedFlavorResources) implements Comparable<DominantResourceShare> {

    /** Below every real share; the starting point of a maximum search. */
    public static final DominantResourceShare NEGATIVE = new DominantResourceShare(1.0, -1, "", Set.of());

    public static DominantResourceShare zero(double fairWeight) {
        return new DominantResourceShare(fairWeight, 0, "", Set.of());
    }

    public boolean isBorrowing() {
        return !borrowedFlavorResources.isEmpty();
    }

    public double weightedShare() {
        if (unweightedRatio == 0) {
            return 0;
        }
        return fairWeight == 0 ? Double.POSITIVE_INFINITY : unweightedRatio / fairWeight;
    }

    private boolean zeroWeightBorrows() {
        return fairWeight == 0 && unweightedRatio != 0;
    }

    @Override
    public int compareTo(DominantResourceShare o) {
        if (zeroWeightBorrows() && o.zeroWeightBorrows()) {
            return Double.compare(unweightedRatio, o.unweightedRatio);
        }
        if (zeroWeightBorrows()) {
            return 1;
        }
        if (o.zeroWeightBorrows()) {
            return -1;
        }
        return Double.compare(weightedShare(), o.weightedShare());
    }
}
