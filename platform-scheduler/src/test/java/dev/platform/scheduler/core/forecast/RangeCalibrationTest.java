package dev.platform.scheduler.core.forecast;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static dev.platform.scheduler.core.CoreFixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RangeCalibrationTest {

    private static final String TREE = "research";

    private final RangeCalibration calibration = new RangeCalibration(100, 20);

    @Test
    void theRangeGrowsToHoldEightyPercentOfThePastWaitsAgainstTheirTimeIfNothingArrives() {
        // Expected 10 minutes each time; waited 6 to 104 minutes: ratios 0.6 to 10.4, the 10th and 90th 1.5 and 9.5.
        for (int waited = 6; waited <= 104; waited++) {
            calibration.admitted(TREE, T0, T0.plus(minutes(10)), T0.plus(minutes(waited)));
        }
        RangeCalibration.Ratios ratios = calibration.ratios(TREE);
        Instant now = T0.plus(Duration.ofHours(3));
        WorkloadForecast simulated = forecast(now, 28, 25, 30, 20);

        WorkloadForecast widened = ratios.widen(now, simulated);

        assertThat(ratios.count()).isEqualTo(99);
        assertThat(ratios.p10()).isEqualTo(1.5);
        assertThat(ratios.p90()).isEqualTo(9.5);
        assertThat(widened.p10()).as("the simulation's 25 min is earlier than 1.5 x 20 min").isEqualTo(now.plus(minutes(25)));
        assertThat(widened.p90()).as("9.5 x 20 min").isEqualTo(now.plus(minutes(190)));
        assertThat(widened.estimatedAdmissionAt()).isEqualTo(simulated.estimatedAdmissionAt());
        assertThat(widened.ifNothingArrivesAt()).isEqualTo(simulated.ifNothingArrivesAt());
        assertThat(widened.message()).isEqualTo("as simulated; range widened to hold 80% of the last 99 waits in its"
                + " cohort against their time if nothing arrives");
    }

    @Test
    void anOpenRangeIsClosedByTheRecordButNeverBeforeTheEstimate() {
        for (int i = 0; i < 20; i++) {
            calibration.admitted(TREE, T0, T0.plus(minutes(60)), T0.plus(minutes(60)));
        }
        Instant now = T0.plus(Duration.ofHours(3));

        WorkloadForecast open = calibration.ratios(TREE).widen(now, forecast(now, 90, 70, null, 60));

        assertThat(open.p10()).as("1.0 x 60 min is earlier than 70").isEqualTo(now.plus(minutes(60)));
        assertThat(open.p90()).as("1.0 x 60 min is earlier than the estimate").isEqualTo(now.plus(minutes(90)));
    }

    @Test
    void tooFewWaitsOrForecastsMadeTooCloseToTheAdmissionWidenNothing() {
        for (int i = 0; i < 19; i++) {
            calibration.admitted(TREE, T0, T0.plus(minutes(10)), T0.plus(minutes(100)));
        }
        for (int i = 0; i < 50; i++) {
            calibration.admitted(TREE, T0, T0.plus(minutes(1)), T0.plus(minutes(5)));
        }
        Instant now = T0.plus(Duration.ofHours(3));
        WorkloadForecast simulated = forecast(now, 28, 25, 30, 20);

        assertThat(calibration.size(TREE)).isEqualTo(19);
        assertThat(calibration.ratios(TREE)).isEqualTo(RangeCalibration.Ratios.NONE);
        assertThat(calibration.ratios(TREE).widen(now, simulated)).isSameAs(simulated);
        assertThat(calibration.ratios("another-tree")).isEqualTo(RangeCalibration.Ratios.NONE);
    }

    @Test
    void onlyTheLatestWaitsAreKept() {
        RangeCalibration latest = new RangeCalibration(20, 20);
        for (int i = 0; i < 20; i++) {
            latest.admitted(TREE, T0, T0.plus(minutes(10)), T0.plus(minutes(100)));
        }
        for (int i = 0; i < 20; i++) {
            latest.admitted(TREE, T0, T0.plus(minutes(10)), T0.plus(minutes(20)));
        }

        assertThat(latest.size(TREE)).isEqualTo(20);
        assertThat(latest.ratios(TREE).p10()).isEqualTo(2.0);
        assertThat(latest.ratios(TREE).p90()).isEqualTo(2.0);
        assertThatThrownBy(() -> new RangeCalibration(0, 20)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aForecastWithoutAnEstimateIsLeftAsItIs() {
        for (int i = 0; i < 20; i++) {
            calibration.admitted(TREE, T0, T0.plus(minutes(10)), T0.plus(minutes(100)));
        }
        WorkloadForecast beyond = new WorkloadForecast(null, T0.plus(Duration.ofDays(7)), null,
                ForecastBasis.BeyondHorizon, "beyond the horizon");

        assertThat(calibration.ratios(TREE).widen(T0, beyond)).isSameAs(beyond);
    }

    private static WorkloadForecast forecast(Instant now, int estimate, int p10, Integer p90, int ifNothingArrives) {
        return new WorkloadForecast(now.plus(minutes(estimate)), now.plus(minutes(p10)),
                p90 == null ? null : now.plus(minutes(p90)), ForecastBasis.LocalQueueHistory, "as simulated",
                now.plus(minutes(ifNothingArrives)), ArrivalBasis.ArrivalHistory);
    }

    private static Duration minutes(int minutes) {
        return Duration.ofMinutes(minutes);
    }
}
