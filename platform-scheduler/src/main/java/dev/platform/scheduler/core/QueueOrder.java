package dev.platform.scheduler.core;


import java.time.Instant;
import java.util.Comparator;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Kueue's order of workloads competing for the same thing: higher priority first, then the earlier time (queue
 * timestamp for waiting workloads, admission time for running ones), then uid so that the order is total.
 */
public final class QueueOrder {

    private QueueOrder() {
    }

    public static <T> Comparator<T> of(ToIntFunction<T> priority, Function<T, Instant> time, Function<T, String> uid) {
        return Comparator.comparingInt(priority).reversed().thenComparing(time).thenComparing(uid);
    }
}
