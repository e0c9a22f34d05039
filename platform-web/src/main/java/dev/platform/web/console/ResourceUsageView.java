package dev.platform.web.console;

import dev.platform.api.manifest.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Usage of one resource in one flavor of a ClusterQueue, quantities as Kubernetes text; limits are
 * null when unlimited. The bar is scaled to the larger of nominal quota and usage, so quota borrowed
 * beyond the nominal shows as its own segment.
 */
public record ResourceUsageView(String flavor, String resource, String nominalQuota, String borrowingLimit,
                                String lendingLimit, String used, String borrowed, String lent) {

    /** Width of the part of the bar used within the nominal quota, in percent. */
    public int withinNominalPercent() {
        return percent(value(used).min(value(nominalQuota)));
    }

    /** Width of the borrowed part of the bar, in percent. */
    public int borrowedPercent() {
        return percent(value(used).subtract(value(nominalQuota)).max(BigDecimal.ZERO));
    }

    public boolean isBorrowing() {
        return value(borrowed).signum() > 0;
    }

    public boolean isLending() {
        return value(lent).signum() > 0;
    }

    private int percent(BigDecimal part) {
        BigDecimal scale = value(nominalQuota).max(value(used));
        if (scale.signum() == 0) {
            return 0;
        }
        return part.multiply(BigDecimal.valueOf(100)).divide(scale, 0, RoundingMode.HALF_UP).intValue();
    }

    private static BigDecimal value(String quantity) {
        return quantity == null ? BigDecimal.ZERO : Quantity.parse(quantity).value();
    }
}
