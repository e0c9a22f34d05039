package dev.platform.agent.scheduler;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with "equal jitter": the delay for attempt n is half of
 * min(max, initial * 2^n) plus a random part up to the other half, so replicas that lost the
 * scheduler together do not return together.
 */
public record Backoff(Duration initial, Duration max) {

    public static final Backoff SCHEDULER = new Backoff(Duration.ofMillis(200), Duration.ofSeconds(30));

    public Duration delay(int attempt, RandomGenerator random) {
        long ceiling = ceilingMillis(attempt);
        long half = ceiling / 2;
        return Duration.ofMillis(half + (half > 0 ? random.nextLong(half + 1) : 0));
    }

    long ceilingMillis(int attempt) {
        int doublings = Math.min(Math.max(attempt, 0), 30);
        long grown = initial.toMillis() << doublings;
        return grown <= 0 || grown > max.toMillis() ? max.toMillis() : grown;
    }
}
