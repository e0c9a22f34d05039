package dev.platform.scheduler.security;

import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows down password guessing: after {@code maxFailures} failed logins in a row for one user name from
 * one address, that pair is refused for a lockout that doubles with each further failure. Keyed by
 * name and address together, so nobody can lock a user out from elsewhere. Each replica counts its own.
 */
@Component
class LoginThrottle {

    private record Failures(int count, Instant lockedUntil) {
    }

    /** Beyond this many tracked pairs, entries that are no longer locked are dropped. */
    private static final int MAX_TRACKED = 100_000;

    private final SecuritySettings.Login settings;
    private final Clock clock;
    private final Map<String, Failures> failures = new ConcurrentHashMap<>();

    LoginThrottle(SecuritySettings settings, Clock clock) {
        this.settings = settings.login();
        this.clock = clock;
    }

    /** How long logins for this pair are refused still; empty when they are allowed. */
    Optional<Duration> lockedFor(String userName, String address) {
        Failures f = failures.get(key(userName, address));
        if (f == null || f.lockedUntil() == null) {
            return Optional.empty();
        }
        Duration left = Duration.between(clock.instant(), f.lockedUntil());
        return left.isNegative() || left.isZero() ? Optional.empty() : Optional.of(left);
    }

    void failed(String userName, String address) {
        if (failures.size() > MAX_TRACKED) {
            Instant now = clock.instant();
            failures.values().removeIf(f -> f.lockedUntil() == null || f.lockedUntil().isBefore(now));
        }
        failures.compute(key(userName, address), (k, f) -> {
            int count = f == null ? 1 : f.count() + 1;
            if (count < settings.maxFailures()) {
                return new Failures(count, null);
            }
            int doublings = Math.min(count - settings.maxFailures(), 20);
            Duration lockout = settings.lockout().multipliedBy(1L << doublings);
            if (lockout.compareTo(settings.maxLockout()) > 0) {
                lockout = settings.maxLockout();
            }
            return new Failures(count, clock.instant().plus(lockout));
        });
    }

    void succeeded(String userName, String address) {
        failures.remove(key(userName, address));
    }

    private static String key(String userName, String address) {
        return userName.toLowerCase(Locale.ROOT) + "\u0000" + address;
    }
}
