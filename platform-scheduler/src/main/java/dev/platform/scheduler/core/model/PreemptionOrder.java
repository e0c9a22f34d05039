package dev.platform.scheduler.core.model;

import java.time.Instant;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Which of two preemption candidates of equal priority goes first; every other step of the candidate order is
 * Kueue's either way. {@link #MostRecentlyAdmitted} is Kueue's CandidatesOrdering. {@link #LeastLostWork}, a
 * ClusterQueue annotated {@code platform.dev/preemption-order: LeastLostWork}, takes first the candidate that would
 * lose the fewest accelerator resource-seconds were it preempted now ({@link UnsavedWork}), and the most recently
 * admitted only among equal losses. Without a checkpoint both agree for candidates of equal accelerators: the most
 * recently admitted has run, and would lose, the least.
 * <p>
 * The preemptor's ClusterQueue says which order its searches use, as Kueue's {@code spec.preemption} is the
 * preemptor's: one search compares candidates of several ClusterQueues, and only one rule for all of them is an
 * order at all.
 */
public enum PreemptionOrder {

    MostRecentlyAdmitted,
    LeastLostWork;

    /**
     * Of two candidates of equal priority, negative when {@code a} goes first: under LeastLostWork the one whose
     * {@code lostWork} (resource-seconds at the decision's time; not read otherwise) is smaller, then under both the
     * later {@code admittedAt}. Zero leaves the tie to the caller's last step, the uid.
     */
    public <T> int compareEqualPriority(T a, T b, Function<T, Instant> admittedAt, ToDoubleFunction<T> lostWork) {
        if (this == LeastLostWork) {
            int c = Double.compare(lostWork.applyAsDouble(a), lostWork.applyAsDouble(b));
            if (c != 0) {
                return c;
            }
        }
        return admittedAt.apply(b).compareTo(admittedAt.apply(a));
    }
}
