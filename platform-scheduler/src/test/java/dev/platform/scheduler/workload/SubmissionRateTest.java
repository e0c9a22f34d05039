package dev.platform.scheduler.workload;

import dev.platform.scheduler.core.FakeClock;
import dev.platform.scheduler.refusal.Refusal;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The per-caller submission bucket, on a clock the test moves. */
class SubmissionRateTest {

    private final FakeClock clock = new FakeClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SubmissionRateLimiter limiter = new SubmissionRateLimiter(new SubmissionRateLimiter.Settings(2, 4), clock);

    @Test
    void aBurstPassesThenTheCallerWaitsForTheRefillWhileOthersGoOn() {
        limiter.acquire("bob", 4);

        Refusal refused = catchThrowableOfType(Refusal.class, () -> limiter.acquire("bob", 1));
        assertThat(refused.kind()).isEqualTo(Refusal.Kind.TooManyRequests);
        assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(1));
        limiter.acquire("alice", 4);

        clock.advance(Duration.ofMillis(1500));
        limiter.acquire("bob", 3);
        assertThat(catchThrowableOfType(Refusal.class, () -> limiter.acquire("bob", 2)).retryAfter())
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aRequestBiggerThanTheBurstIsRefusedAsTooLargeRatherThanToWaitForever() {
        assertThatThrownBy(() -> limiter.acquire("bob", 5)).isInstanceOfSatisfying(Refusal.class,
                e -> assertThat(e.kind()).isEqualTo(Refusal.Kind.TooLarge));
    }

    @Test
    void zeroPerSecondSwitchesTheLimitOff() {
        SubmissionRateLimiter off = new SubmissionRateLimiter(new SubmissionRateLimiter.Settings(0, 1), clock);
        assertThatCode(() -> IntStream.range(0, 100).forEach(i -> off.acquire("bob", 1))).doesNotThrowAnyException();
    }
}
