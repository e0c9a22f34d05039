package dev.platform.agent.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5));

    @Test
    void theCeilingDoublesPerAttemptUpToTheMaximum() {
        assertThat(backoff.ceilingMillis(0)).isEqualTo(100);
        assertThat(backoff.ceilingMillis(1)).isEqualTo(200);
        assertThat(backoff.ceilingMillis(5)).isEqualTo(3200);
        assertThat(backoff.ceilingMillis(6)).isEqualTo(5000);
        assertThat(backoff.ceilingMillis(1000)).isEqualTo(5000);
    }

    @Test
    void eachDelayLiesBetweenHalfTheCeilingAndTheCeiling() {
        SplittableRandom random = new SplittableRandom(42);
        for (int attempt = 0; attempt < 12; attempt++) {
            long ceiling = backoff.ceilingMillis(attempt);
            for (int i = 0; i < 50; i++) {
                assertThat(backoff.delay(attempt, random).toMillis()).isBetween(ceiling / 2, ceiling);
            }
        }
    }

    @Test
    void jitterSpreadsReplicasThatFailedTogether() {
        SplittableRandom random = new SplittableRandom(7);
        long distinct = java.util.stream.IntStream.range(0, 20)
                .mapToLong(i -> backoff.delay(4, random).toMillis())
                .distinct()
                .count();
        assertThat(distinct).isGreaterThan(10);
    }
}
