package dev.platform.scheduler.core.admissioncheck;

import dev.platform.scheduler.core.lifecycle.RequeuingStrategy;

import java.time.Duration;

/**
 * A ProvisioningRequestConfig's {@code retryStrategy}: a request that failed (or whose booking expired before the
 * workload was admitted) is retried {@code backoffLimitCount} times; the n-th retry waits
 * {@code backoffBaseSeconds * 2^(n-1)}, at most {@code backoffMaxSeconds} (Kueue's
 * UpdateAdmissionCheckRequeueState, without its jitter).
 */
public record RetryStrategy(int backoffLimitCount, int backoffBaseSeconds, int backoffMaxSeconds) {

    /** Kueue's defaults: three retries, 60 s doubling up to 30 minutes. */
    public static final RetryStrategy KUEUE_DEFAULTS = new RetryStrategy(3, 60, 1800);

    public RetryStrategy {
        if (backoffLimitCount < 0 || backoffBaseSeconds < 0 || backoffMaxSeconds < 0) {
            throw new IllegalArgumentException("retryStrategy values must not be negative");
        }
    }

    /** The wait before the {@code retry}-th retry (1 for the first). */
    public Duration backoff(int retry) {
        return RequeuingStrategy.exponentialBackoff(backoffBaseSeconds, backoffMaxSeconds, retry);
    }
}
