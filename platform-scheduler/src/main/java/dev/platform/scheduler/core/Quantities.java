package dev.platform.scheduler.core;

import java.math.BigDecimal;

/** The core counts resources in milli-units; these are the conversions to Kubernetes text and exact numbers. */
public final class Quantities {

    private Quantities() {
    }

    /** The canonical Kubernetes text of a milli amount: {@code 32} for 32000, {@code 500m} for 500. */
    public static String format(long milli) {
        return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
    }

    /** The exact amount: {@code 32} for 32000, {@code 0.5} for 500. */
    public static BigDecimal value(long milli) {
        return BigDecimal.valueOf(milli, 3).stripTrailingZeros();
    }
}
