package dev.platform.scheduler.workload;

import dev.platform.scheduler.refusal.Refusal;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Workload submissions per caller, as a token bucket per user: a script gone wild gets 429 with
 * {@code Retry-After} instead of flooding the queues. Each replica counts its own.
 */
@Component
@EnableConfigurationProperties(SubmissionRateLimiter.Settings.class)
public class SubmissionRateLimiter {

    /**
     * {@code platform.security.submissions.*}: the bucket refills at {@code perSecond} and holds at most
     * {@code burst}; {@code perSecond} 0 switches the limit off.
     */
    @ConfigurationProperties("platform.security.submissions")
    public record Settings(@DefaultValue("100") double perSecond, @DefaultValue("500") int burst) {
    }

    private static final class Bucket {
        double tokens;
        long refilledAtNanos;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.refilledAtNanos = now;
        }
    }

    /** Beyond this many callers, buckets that are full again are dropped: they hold no information. */
    private static final int MAX_TRACKED = 100_000;

    private final Settings settings;
    private final Clock clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    SubmissionRateLimiter(Settings settings, Clock clock) {
        if (settings.perSecond() < 0 || settings.burst() < 1) {
            throw new IllegalStateException("platform.security.submissions: perSecond must be >= 0 and burst >= 1");
        }
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Takes {@code submissions} from the caller's bucket, or refuses them all with 429 and the seconds
     * after which they would fit.
     */
    public void acquire(String caller, int submissions) {
        if (settings.perSecond() == 0 || submissions == 0) {
            return;
        }
        if (submissions > settings.burst()) {
            throw new Refusal(Refusal.Kind.TooLarge, "Too many workloads in one request", "a request may"
                    + " submit at most " + settings.burst() + " workloads (platform.security.submissions.burst)", List.of());
        }
        long now = clock.millis() * 1_000_000L;
        if (buckets.size() > MAX_TRACKED) {
            buckets.values().removeIf(b -> refilled(b, now) >= settings.burst());
        }
        double[] waitSeconds = {0};
        buckets.compute(caller, (k, bucket) -> {
            Bucket b = bucket == null ? new Bucket(settings.burst(), now) : bucket;
            b.tokens = refilled(b, now);
            b.refilledAtNanos = now;
            if (b.tokens >= submissions) {
                b.tokens -= submissions;
            } else {
                waitSeconds[0] = (submissions - b.tokens) / settings.perSecond();
            }
            return b;
        });
        if (waitSeconds[0] > 0) {
            long retryAfter = (long) Math.ceil(waitSeconds[0]);
            throw Refusal.tooManyRequests(caller + " submits faster than platform.security.submissions allows; retry"
                    + " after " + retryAfter + " s", Duration.ofSeconds(retryAfter));
        }
    }

    private double refilled(Bucket b, long now) {
        double elapsedSeconds = Math.max(0, now - b.refilledAtNanos) / 1e9;
        return Math.min(settings.burst(), b.tokens + elapsedSeconds * settings.perSecond());
    }
}
