package dev.platform.scheduler.core.model;

import java.time.Duration;
import java.time.Instant;

/**
 * What a ClusterQueue's annotations say about preempting its admitted workloads. {@code minimumRuntime} (null: none)
 * is how long a workload runs after its current admission before it may be preempted by priority, reclamation or
 * fair sharing; {@code appliesToHotswap} whether that also keeps it from being a hotswap victim (a failed pool is a
 * disruption, so by default it does not).
 */
public record VictimProtection(Duration minimumRuntime, boolean appliesToHotswap) {

    public static final VictimProtection NONE = new VictimProtection(null, false);

    /** When the protection of a workload admitted at {@code admittedAt} ends; null when the queue has none. */
    public Instant endsAt(Instant admittedAt) {
        return minimumRuntime == null ? null : admittedAt.plus(minimumRuntime);
    }
}
