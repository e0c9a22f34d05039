package dev.platform.scheduler.core.lifecycle;

import java.time.Duration;
import java.time.Instant;

/**
 * What the lifecycle timers need to know of a workload holding quota. {@code name} ({@code namespace/name}) is for
 * messages; {@code started} tells whether it was started in a cluster (without one, nothing can report its pods,
 * so only its maximum execution time applies); {@code podsReadyChangedAt} is when {@code podsReady} last changed
 * (null while it waits for its first start); {@code maximumExecutionTime} is null when unlimited.
 */
public record AdmittedRun(String uid, String name, Instant admittedAt, boolean started, PodsReady podsReady,
                          Instant podsReadyChangedAt, int requeueCount, Duration maximumExecutionTime) {
}
