package dev.platform.scheduler.core.lifecycle;

import java.time.Instant;

/**
 * Kueue's {@code status.requeueState}: how many times the workload was requeued after a PodsReady timeout (or a
 * START that failed transiently), and when its current backoff ends.
 */
public record RequeueState(int count, Instant requeueAt) {
}
