package dev.platform.scheduler.core.forecast;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static dev.platform.scheduler.core.CoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RangeCalibrationTest {

    private static final String TREE = "research";
    private static final Instant NOW = T0.plus(Duration.ofHours(3));

    private final RangeCalibration calibration = new RangeCalibration(100, 20);

    @Test
    void aRangeTooNarrowGrowsUntilItWouldHaveHeldEightyPercentOfTheRecordedWaits() {
        // Forecast 9 to 11 minutes (10 if nothing arrives), waited 6 to 104: ratios 0.6 to 10.4. The record's range
        // from its 15th to its 85th percentile, 2.0 to 9.0, is the narrowest whose union with each forecast's own
        // range holds 80% of the 99 waits (82 of them; from the 20th to the 80th, 2.5 to 8.5, would hold 77).
        for (int waited = 6; waited <= 104; waited++) {
            calibration.admitted(TREE, T0, forecast(T0, 10, 9, 11, 10), T0.plus(minutes(waited)));
        }
        RangeCalibration.Ratios ratios = calibration.ratios(TREE);
        WorkloadForecast simulated = forecast(NOW, 28, 25, 30, 20);

        WorkloadForecast widened = ratios.widen(NOW, simulated);

        assertThat(ratios).isEqualTo(new RangeCalibration.Ratios(99, 2.0, 9.0));
        assertThat(widened.p10()).as("the simulation's 25 min is earlier than 2.0 x 20 min").isEqualTo(NOW.plus(minutes(25)));
        assertThat(widened.p90()).as("9.0 x 20 min").isEqualTo(NOW.plus(minutes(180)));
        assertThat(widened.estimatedAdmissionAt()).isEqualTo(simulated.estimatedAdmissionAt());
        assertThat(widened.ifNothingArrivesAt()).isEqualTo(simulated.ifNothingArrivesAt());
        assertThat(widened.message()).isEqualTo("as simulated; range widened to hold 80% of the last 99 waits in its"
                + " cohort against their time if nothing arrives");
    }

    @Test
    void rangesThatHeldTheWaitsAreLeftAsTheyAre() {
        for (int i = 0; i < 50; i++) {
            calibration.admitted(TREE, T0, forecast(T0, 60, 30, 120, 60), T0.plus(minutes(50 + i % 20)));
        }
        WorkloadForecast simulated = forecast(NOW, 60, 30, 120, 60);

        assertThat(calibration.ratios(TREE).low()).as("the record's range shrinks to its median")
                .isEqualTo(calibration.ratios(TREE).high());
        assertThat(calibration.ratios(TREE).widen(NOW, simulated)).isSameAs(simulated);
    }

    @Test
    void anOpenRangeIsClosedByTheRecordButNeverBeforeTheEstimate() {
        for (int i = 0; i < 20; i++) {
            calibration.admitted(TREE, T0, forecast(T0, 60, 50, 70, 60), T0.plus(minutes(60)));
        }

        WorkloadForecast open = calibration.ratios(TREE).widen(NOW, forecast(NOW, 90, 70, null, 60));

        assertThat(open.p10()).as("1.0 x 60 min is earlier than 70").isEqualTo(NOW.plus(minutes(60)));
        assertThat(open.p90()).as("1.0 x 60 min is earlier than the estimate").isEqualTo(NOW.plus(minutes(90)));
    }

    @Test
    void tooFewWaitsOrForecastsMadeTooCloseToTheAdmissionWidenNothing() {
        for (int i = 0; i < 19; i++) {
            calibration.admitted(TREE, T0, forecast(T0, 10, 9, 11, 10), T0.plus(minutes(100)));
        }
        for (int i = 0; i < 50; i++) {
            calibration.admitted(TREE, T0, forecast(T0, 1, 1, 1, 1), T0.plus(minutes(5)));
        }
        WorkloadForecast simulated = forecast(NOW, 28, 25, 30, 20);

        assertThat(calibration.size(TREE)).isEqualTo(19);
        assertThat(calibration.ratios(TREE)).isEqualTo(RangeCalibration.Ratios.NONE);
        assertThat(calibration.ratios(TREE).widen(NOW, simulated)).isSameAs(simulated);
        assertThat(calibration.ratios("another-tree")).isEqualTo(RangeCalibration.Ratios.NONE);
    }

    @Test
    void onlyTheLatestWaitsAreKept() {
        RangeCalibration latest = new RangeCalibration(20, 20);
        for (int i = 0; i < 20; i++) {
            latest.admitted(TREE, T0, forecast(T0, 10, 10, 10, 10), T0.plus(minutes(100)));
        }
        for (int i = 0; i < 20; i++) {
            latest.admitted(TREE, T0, forecast(T0, 10, 10, 10, 10), T0.plus(minutes(20)));
        }

        assertThat(latest.size(TREE)).isEqualTo(20);
        assertThat(latest.ratios(TREE)).isEqualTo(new RangeCalibration.Ratios(20, 2.0, 2.0));
        assertThatThrownBy(() -> new RangeCalibration(0, 20)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aForecastWithoutAnEstimateIsLeftAsItIsAndNotRecorded() {
        WorkloadForecast beyond = new WorkloadForecast(null, T0.plus(Duration.ofDays(7)), null,
                ForecastBasis.BeyondHorizon, "beyond the horizon");
        for (int i = 0; i < 20; i++) {
            calibration.admitted(TREE, T0, beyond, T0.plus(minutes(100)));
            calibration.admitted(TREE, T0, forecast(T0, 10, 10, 10, 10), T0.plus(minutes(100)));
        }

        assertThat(calibration.size(TREE)).isEqualTo(20);
        assertThat(calibration.ratios(TREE).widen(T0, beyond)).isSameAs(beyond);
    }

    private static WorkloadForecast forecast(Instant at, int estimate, int p10, Integer p90, int ifNothingArrives) {
        return new WorkloadForecast(at.plus(minutes(estimate)), at.plus(minutes(p10)),
                p90 == null ? null : at.plus(minutes(p90)), ForecastBasis.LocalQueueHistory, "as simulated",
                at.plus(minutes(ifNothingArrives)), ArrivalBasis.ArrivalHistory);
    }

    private static Duration minutes(int minutes) {
        return Duration.ofMinutes(minutes);
    }
}
