package dev.platform.scheduler.core.lifecycle;

import java.time.Duration;

/**
 * Kueue's {@code waitForPodsReady}: an admitted workload whose pods are not all ready within {@code timeout} of
 * its admission is evicted (reason {@code PodsReadyTimeout}) and requeued as {@code requeuingStrategy} says; one
 * that was ready and whose pods stop being ready is evicted likewise after {@code recoveryTimeout} (null or zero:
 * never). With {@code enable} false neither happens, but a START that failed transiently still backs off by
 * {@code requeuingStrategy}.
 */
public record WaitForPodsReady(boolean enable, Duration timeout, Duration recoveryTimeout,
                               RequeuingStrategy requeuingStrategy) {

    /** Kueue 0.19's defaults (Configuration v1beta2): on, 30 minutes, recovery as long as the timeout. */
    public static final WaitForPodsReady KUEUE_DEFAULTS = new WaitForPodsReady(true, Duration.ofMinutes(30),
            Duration.ofMinutes(30), RequeuingStrategy.KUEUE_DEFAULTS);

    public WaitForPodsReady {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("waitForPodsReady.timeout must be positive");
        }
        if (requeuingStrategy == null) {
            throw new IllegalArgumentException("waitForPodsReady.requeuingStrategy is required");
        }
    }

    /** Whether a workload whose pods stopped being ready is evicted after {@link #recoveryTimeout}. */
    public boolean checksRecovery() {
        return enable && recoveryTimeout != null && !recoveryTimeout.isZero() && !recoveryTimeout.isNegative();
    }
}
