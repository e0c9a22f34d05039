package dev.platform.scheduler.core.forecast;

/** The runtime quantiles a forecast simulates: the range's ends and the estimate. */
public enum Quantile {
    P10(0.1), P50(0.5), P90(0.9);

    private final double fraction;

    Quantile(double fraction) {
        this.fraction = fraction;
    }

    public double fraction() {
        return fraction;
    }
}
