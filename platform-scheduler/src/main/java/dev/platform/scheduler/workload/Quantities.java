package dev.platform.scheduler.workload;

import java.math.BigDecimal;

/** Conversions between exact quantities and the core's milli-units. */
public final class Quantities {

    private Quantities() {
    }

    /** The canonical Kubernetes text of a milli amount: {@code 32} for 32000, {@code 500m} for 500. */
    public static String format(long milli) {
        if (milli % 1000 == 0) {
            return Long.toString(milli / 1000);
        }
        return milli + "m";
    }

    public static BigDecimal value(long milli) {
        return BigDecimal.valueOf(milli, 3).stripTrailingZeros();
    }
}
