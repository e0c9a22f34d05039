package dev.platform.scheduler.core.lifecycle;

import dev.platform.api.reason.DeactivationReason;
import dev.platform.api.reason.EvictionReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The leader's clocks on workloads holding quota (Kueue's workload controller, {@code reconcileNotReadyTimeout}
 * and {@code reconcileMaxExecutionTime}): each tracked workload has one deadline, the earliest of
 * <ul>
 *   <li>its pods-ready timeout: admission + {@code timeout} while its pods have not all been ready, or the last
 *   change + {@code recoveryTimeout} while they are recovering; none when they are ready or when it was not
 *   started in a cluster;</li>
 *   <li>its maximum execution time: admission + {@code maximumExecutionTimeSeconds}.</li>
 * </ul>
 * At a pods-ready deadline the workload is requeued with backoff, or deactivated ({@code RequeuingLimitExceeded})
 * once it has been requeued {@code backoffLimitCount} times; at its maximum execution time it is deactivated
 * ({@code MaximumExecutionTimeExceeded}). Deadlines sit in time order, so a turn looks only at those that are due.
 * Not thread-safe: the scheduling loop owns it.
 */
public final class LifecycleTimers {

    private enum Kind { PodsReady, MaximumExecutionTime }

    private record Deadline(Instant at, String uid, Kind kind, AdmittedRun run) {
    }

    /** Time order, uid last, so two deadlines at one instant are both kept and come out in a fixed order. */
    private static final Comparator<Deadline> ORDER = Comparator.comparing(Deadline::at).thenComparing(Deadline::uid);

    private final WaitForPodsReady settings;
    private final Map<String, Deadline> byUid = new HashMap<>();
    private final TreeSet<Deadline> byTime = new TreeSet<>(ORDER);

    public LifecycleTimers(WaitForPodsReady settings) {
        this.settings = settings;
    }

    public WaitForPodsReady settings() {
        return settings;
    }

    /** Starts or updates the clocks of a workload holding quota. */
    public void track(AdmittedRun run) {
        forget(run.uid());
        Deadline podsReady = podsReadyDeadline(run);
        Deadline execution = run.maximumExecutionTime() == null ? null : new Deadline(
                run.admittedAt().plus(run.maximumExecutionTime()), run.uid(), Kind.MaximumExecutionTime, run);
        Deadline first = podsReady == null ? execution
                : execution == null || ORDER.compare(podsReady, execution) <= 0 ? podsReady : execution;
        if (first != null) {
            byUid.put(run.uid(), first);
            byTime.add(first);
        }
    }

    /** Stops the clocks of a workload that no longer holds quota. */
    public void forget(String uid) {
        Deadline old = byUid.remove(uid);
        if (old != null) {
            byTime.remove(old);
        }
    }

    /** The earliest deadline, if any workload has one. */
    public Optional<Instant> next() {
        return byTime.isEmpty() ? Optional.empty() : Optional.of(byTime.first().at());
    }

    /** The decisions for every deadline reached at {@code now}, in deadline order; their clocks stop. */
    public List<LifecycleDecision> due(Instant now) {
        List<LifecycleDecision> decisions = new ArrayList<>();
        while (!byTime.isEmpty() && !byTime.first().at().isAfter(now)) {
            Deadline d = byTime.pollFirst();
            byUid.remove(d.uid());
            AdmittedRun run = d.run();
            decisions.add(d.kind() == Kind.MaximumExecutionTime
                    ? LifecycleDecision.Deactivate.of(run.uid(), DeactivationReason.MaximumExecutionTimeExceeded)
                    : settings.requeuingStrategy().next(run.uid(), run.requeueCount(), now,
                    EvictionReason.PodsReadyTimeout, run.podsReady(), "Exceeded the PodsReady timeout " + run.name()));
        }
        return decisions;
    }

    private Deadline podsReadyDeadline(AdmittedRun run) {
        if (!settings.enable() || !run.started()) {
            return null;
        }
        return switch (run.podsReady()) {
            case Ready -> null;
            case WaitForStart -> at(run, run.admittedAt(), settings.timeout());
            case WaitForRecovery -> settings.checksRecovery()
                    ? at(run, run.podsReadyChangedAt() == null ? run.admittedAt() : run.podsReadyChangedAt(),
                    settings.recoveryTimeout())
                    : null;
        };
    }

    private static Deadline at(AdmittedRun run, Instant from, Duration timeout) {
        return new Deadline(from.plus(timeout), run.uid(), Kind.PodsReady, run);
    }
}
