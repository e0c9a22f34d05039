package dev.platform.scheduler.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * The training an admitted workload has not checkpointed yet, which a preemption throws away: its accelerators (what
 * it was admitted with of the lost-work resources, {@code platform.scheduler.lost-work.resources}, summed over
 * flavors and resources) since the later of its last checkpoint and its current admission. A checkpoint older than
 * the admission saved nothing of the current run.
 */
public record UnsavedWork(double accelerators, Instant since) {

    /** The unsaved work of a workload holding {@code usage} since {@code admittedAt}; {@code lastCheckpoint} may be null. */
    public static UnsavedWork of(Map<FlavorResource, Long> usage, Set<String> resources, Instant admittedAt,
                                 Instant lastCheckpoint) {
        long milli = 0;
        for (Map.Entry<FlavorResource, Long> e : usage.entrySet()) {
            if (resources.contains(e.getKey().resource())) {
                milli += e.getValue();
            }
        }
        return new UnsavedWork(milli / 1000.0, since(admittedAt, lastCheckpoint));
    }

    /** Where lost work counts from: the later of the last checkpoint (null when none is known) and the admission. */
    public static Instant since(Instant admittedAt, Instant lastCheckpoint) {
        return lastCheckpoint != null && lastCheckpoint.isAfter(admittedAt) ? lastCheckpoint : admittedAt;
    }

    /** The resource-seconds a preemption at {@code now} loses; none for a checkpoint ahead of {@code now}. */
    public double resourceSecondsAt(Instant now) {
        return accelerators * Math.max(0, Duration.between(since, now).toMillis()) / 1000.0;
    }
}
