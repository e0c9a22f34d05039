package dev.platform.scheduler.core.lifecycle;

import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import java.time.Duration;
import java.time.Instant;

/**
 * How a workload evicted for its pods' readiness (or whose start failed transiently) is requeued: Kueue's
 * {@code waitForPodsReady.requeuingStrategy}. The n-th requeue waits {@code backoffBaseSeconds * 2^(n-1)}, at most
 * {@code backoffMaxSeconds} (Kueue's {@code UpdateRequeueState}, without its 0.01% jitter); once the workload has
 * been requeued {@code backoffLimitCount} times, the next timeout deactivates it instead. A null limit requeues
 * without end.
 */
public record RequeuingStrategy(RequeuingTimestamp timestamp, int backoffBaseSeconds, int backoffMaxSeconds,
                                Integer backoffLimitCount) {

    /** Kueue 0.19's defaults: eviction time, 60 s doubling up to an hour, no limit. */
    public static final RequeuingStrategy KUEUE_DEFAULTS = new RequeuingStrategy(RequeuingTimestamp.Eviction, 60,
            3600, null);

    public RequeuingStrategy {
        if (timestamp == null) {
            throw new IllegalArgumentException("requeuingStrategy.timestamp is required");
        }
        if (backoffBaseSeconds < 0 || backoffMaxSeconds < 0 || (backoffLimitCount != null && backoffLimitCount < 0)) {
            throw new IllegalArgumentException("requeuingStrategy values must not be negative");
        }
    }

    /** How long the {@code count}-th requeue (1 for the first) waits before the workload queues again. */
    public Duration backoff(int count) {
        return exponentialBackoff(backoffBaseSeconds, backoffMaxSeconds, count);
    }

    /** Kueue's backoff: {@code baseSeconds * 2^(n-1)} for the n-th wait, at most {@code maxSeconds}. */
    public static Duration exponentialBackoff(int baseSeconds, int maxSeconds, int n) {
        long seconds = baseSeconds;
        for (int i = 1; i < n && seconds < maxSeconds; i++) {
            seconds *= 2;
        }
        return Duration.ofSeconds(Math.min(seconds, maxSeconds));
    }

    /** Whether a workload already requeued {@code count} times is deactivated rather than requeued once more. */
    public boolean limitReached(int count) {
        return backoffLimitCount != null && count + 1 > backoffLimitCount;
    }

    /**
     * What happens to a workload evicted for {@code reason} that was requeued {@code requeueCount} times so far:
     * requeued once more with the next backoff from {@code now}, or, at the limit, deactivated
     * ({@code RequeuingLimitExceeded}; Kueue's {@code triggerDeactivation}). {@code cause} is the PodsReady
     * condition the timeout hit (null for other reasons).
     */
    public LifecycleDecision next(String uid, int requeueCount, Instant now, EvictionReason reason, PodsReady cause,
                                  String message) {
        if (limitReached(requeueCount)) {
            return LifecycleDecision.Deactivate.of(uid, DeactivationReason.RequeuingLimitExceeded);
        }
        int count = requeueCount + 1;
        return new LifecycleDecision.Requeue(uid, reason, cause, new RequeueState(count, now.plus(backoff(count))),
                message);
    }
}
