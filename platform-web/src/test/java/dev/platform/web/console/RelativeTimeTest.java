package dev.platform.web.console;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class RelativeTimeTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private final RelativeTime times = new RelativeTime(NOW);

    @Test
    void pastAndFutureTimesReadRelativeToNow() {
        assertThat(times.relative(NOW.minusSeconds(5))).isEqualTo("just now");
        assertThat(times.relative(NOW.minusSeconds(51))).as("a stale cluster's last report").isEqualTo("51 s ago");
        assertThat(times.relative(NOW.plusSeconds(20))).isEqualTo("in under a minute");
        assertThat(times.relative(NOW.minus(Duration.ofMinutes(3)))).isEqualTo("3 min ago");
        assertThat(times.relative(NOW.plus(Duration.ofMinutes(25)))).isEqualTo("in about 25 min");
        assertThat(times.relative(NOW.minus(Duration.ofMinutes(125)))).isEqualTo("2 h 5 min ago");
        assertThat(times.relative(NOW.plus(Duration.ofHours(3)))).isEqualTo("in about 3 h");
        assertThat(times.relative(NOW.minus(Duration.ofHours(76)))).isEqualTo("3 d 4 h ago");
    }

    @Test
    void theExactTimeIsUtcWithMillisecondsOnlyWhenThereAreAny() {
        assertThat(times.exact(NOW)).isEqualTo("2026-03-01 10:00:00 UTC");
        assertThat(times.exact(NOW.plusMillis(500))).isEqualTo("2026-03-01 10:00:00.500 UTC");
    }

    @Test
    void aMessageIsCutAtTheInstantsWrittenInIt() {
        assertThat(times.parts("backing off until 2026-03-01T10:05:00Z; protected until 2026-03-01T09:59:59.500Z."))
                .containsExactly(new RelativeTime.Part("backing off until ", null),
                        new RelativeTime.Part("2026-03-01T10:05:00Z", Instant.parse("2026-03-01T10:05:00Z")),
                        new RelativeTime.Part("; protected until ", null),
                        new RelativeTime.Part("2026-03-01T09:59:59.500Z", Instant.parse("2026-03-01T09:59:59.500Z")),
                        new RelativeTime.Part(".", null));
        assertThat(times.parts("no time here, nor 2026-13-45T10:00:00Z"))
                .containsExactly(new RelativeTime.Part("no time here, nor 2026-13-45T10:00:00Z", null));
        assertThat(times.parts(null)).isEmpty();
    }

    @Test
    void aForecastReadsAsAStartWithItsRange() {
        assertThat(times.startsIn(forecast(25, 10, 50))).isEqualTo("starts in about 25 min (range 10-50 min)");
        assertThat(times.startsIn(forecast(25, 25, 25))).isEqualTo("starts in about 25 min");
        assertThat(times.startsIn(forecast(90, 45, 150))).isEqualTo("starts in about 1 h 30 min (range 45 min-2 h 30 min)");
        assertThat(times.startsIn(new ForecastView(NOW.plus(Duration.ofMinutes(25)), NOW.plus(Duration.ofMinutes(10)),
                null, "LocalQueueHistory", "", NOW, false))).isEqualTo("starts in about 25 min (range 10 min or later)");
        assertThat(times.startsIn(forecast(0, 0, 0))).isEqualTo("starts in under a minute");
        assertThat(times.notBefore(NOW.plus(Duration.ofDays(7)))).isEqualTo("starts in more than 7 d");
        assertThat(times.exactRange(forecast(25, 10, 50)))
                .isEqualTo("2026-03-01 10:25:00 UTC (range 2026-03-01 10:10:00 UTC to 2026-03-01 10:50:00 UTC)");
    }

    @Test
    void aForecastWithArrivalsAlsoReadsAsTheStartIfNothingArrives() {
        ForecastView withArrivals = new ForecastView(NOW.plus(Duration.ofMinutes(40)), NOW.plus(Duration.ofMinutes(20)),
                NOW.plus(Duration.ofMinutes(90)), "LocalQueueHistory", "", NOW, false, NOW.plus(Duration.ofMinutes(20)),
                "ArrivalHistory");

        assertThat(withArrivals.expectsArrivals()).isTrue();
        assertThat(times.ifNothingArrives(withArrivals)).isEqualTo("if nothing new arrives: in about 20 min");
        assertThat(forecast(25, 10, 50).expectsArrivals()).as("no arrivals expected: one time").isFalse();
    }

    private static ForecastView forecast(int minutes, int low, int high) {
        return new ForecastView(NOW.plus(Duration.ofMinutes(minutes)), NOW.plus(Duration.ofMinutes(low)),
                NOW.plus(Duration.ofMinutes(high)), "LocalQueueHistory", "", NOW, false);
    }
}
