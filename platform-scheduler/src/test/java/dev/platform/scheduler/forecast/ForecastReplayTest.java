package dev.platform.scheduler.forecast;

import dev.platform.scheduler.core.forecast.SimulatedClock;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.context.bean.override.convention.TestBean;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forecast against reality: a generated trace replayed through the real scheduler and the simulated cluster
 * in discrete time ({@link ForecastReplay}), every forecast compared with the admission that followed. With exact
 * runtimes (0% spread) a forecast that no later arrival could have changed must be exact: anything else means the
 * simulation and the scheduler disagree. The small size runs in the build; the full size (three spreads, a
 * twelve-hour arrival phase) runs with {@code -Pforecast-replay} (docs/forecast.md) and writes its tables to
 * {@code target/forecast-replay.md}.
 */
@TestPropertySource(properties = {"platform.test.database=forecast_replay", "platform.agents.staleness=3650d",
        "platform.forecast.budget=120s", "platform.forecast.interval=1h"})
class ForecastReplayTest extends PlatformApplicationTest {

    static final SimulatedClock CLOCK = new SimulatedClock(ForecastReplay.START);
    static final long SEED = 15;

    @TestBean
    Clock clock;

    @Autowired
    ForecastService forecasts;

    static Clock clock() {
        return CLOCK;
    }

    @Test
    void forecastsMatchTheSchedulersAdmissions() throws Exception {
        boolean full = "full".equals(System.getProperty("forecast.replay"));
        List<Double> spreads = full ? List.of(0.0, 0.2, 0.5) : List.of(0.0);
        Duration arrivalPhase = full ? Duration.ofHours(12) : Duration.ofHours(3);
        List<ReplayReport> reports = new ArrayList<>();
        for (double spread : spreads) {
            reports.add(replay(ReplayTrace.generate(SEED, spread, arrivalPhase)));
        }
        StringBuilder markdown = new StringBuilder();
        reports.forEach(r -> markdown.append(r.markdown()).append('\n'));
        Path out = Path.of("target", full ? "forecast-replay.md" : "forecast-replay-small.md");
        Files.writeString(out, markdown);
        System.out.println(markdown);

        ReplayReport exact = reports.get(0);
        assertThat(exact.undisturbed()).as("forecasts no later arrival could change").isGreaterThan(10);
        assertThat(exact.exactShareUndisturbed()).as("exact runtimes: forecasts equal to the admissions\n" + markdown)
                .isGreaterThanOrEqualTo(0.99);
    }

    private ReplayReport replay(ReplayTrace trace) throws Exception {
        DatabaseCleaner.clean(jdbc, loop);
        CLOCK.set(ForecastReplay.START);
        try (SimulatedAgent agent = SimulatedAgent.start(port, api, CLOCK)) {
            return new ForecastReplay(api, jdbc, forecasts, CLOCK, trace).run();
        }
    }
}
