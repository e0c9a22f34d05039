package dev.platform.scheduler.core.forecast;

import dev.platform.scheduler.core.model.Workload;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static dev.platform.scheduler.core.CoreFixtures.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The submission rate learned per LocalQueue and priority class, and the least history it needs. */
class ArrivalHistoryTest {

    /** A Monday. */
    private static final Instant START = Instant.parse("2026-06-01T00:00:00Z");

    private final ArrivalHistory history = new ArrivalHistory(5);

    private void submit(String name, Instant at) {
        history.record(workload(name).request("cpu", "1").queuedAt(at).build(), at);
    }

    @Test
    void tooFewSubmissionsOrTooShortAHistoryExpectNothing() {
        for (int i = 0; i < 4; i++) {
            submit("w" + i, START.plus(Duration.ofMinutes(30L * i)));
        }
        assertThat(history.processes(START.plus(Duration.ofHours(2)))).as("four submissions").isEmpty();

        submit("w4", START.plus(Duration.ofMinutes(120)));
        assertThat(history.processes(START.plus(Duration.ofHours(2)))).hasSize(1);

        ArrivalHistory burst = new ArrivalHistory(5);
        for (int i = 0; i < 10; i++) {
            burst.record(workload("b" + i).request("cpu", "1").build(), START.plusSeconds(i));
        }
        assertThat(burst.processes(START.plus(Duration.ofMinutes(30)))).as("half an hour of history").isEmpty();
    }

    @Test
    void aHistoryShorterThanThreeDaysGivesOneRateOverTheLatestSubmissions() {
        for (int i = 0; i <= 30; i++) {
            submit("w" + i, START.plus(Duration.ofMinutes(10L * i)));
        }

        List<ArrivalProcess> processes = history.processes(START.plus(Duration.ofHours(5)));

        assertThat(processes).singleElement().satisfies(p -> {
            assertThat(p.key()).isEqualTo(new ArrivalKey("default", "lq", null));
            assertThat(p.rate().profile()).isEqualTo(ArrivalRate.Profile.Overall);
            assertThat(p.rate().perHour(START)).as("30 gaps in 5 hours").isCloseTo(6.0, within(1e-9));
            assertThat(p.recent()).hasSize(31);
        });
    }

    @Test
    void aBurstAQueueStartedWithLeavesTheRateOnceItIsSixHoursOld() {
        for (int i = 0; i < 3; i++) {
            submit("burst" + i, START.plus(Duration.ofMinutes(i)));
        }
        for (int i = 1; i <= 10; i++) {
            submit("w" + i, START.plus(Duration.ofMinutes(45L * i)));
        }

        double rate = history.processes(START.plus(Duration.ofHours(8))).get(0).rate().perHour(START);

        assertThat(rate).as("eight submissions in the last six hours, not twelve gaps in eight hours")
                .isCloseTo(60.0 / 45, within(1e-9));
    }

    @Test
    void aQueueGoneQuietIsSoonExpectedToStaySo() {
        for (int i = 0; i < 60; i++) {
            submit("w" + i, START.plus(Duration.ofMinutes(10L * i)));
        }
        double busy = history.processes(START.plus(Duration.ofMinutes(590))).get(0).rate().perHour(START);

        double quiet = history.processes(START.plus(Duration.ofMinutes(590 + 600))).get(0).rate().perHour(START);

        assertThat(quiet).isLessThan(busy / 1.9);
    }

    @Test
    void daysOfHistoryGiveARatePerHourOfTheDay() {
        for (int day = 0; day < 4; day++) {
            for (int minute = 0; minute < 8 * 60; minute += 10) {
                Instant at = START.plus(Duration.ofDays(day)).plus(Duration.ofHours(9)).plus(Duration.ofMinutes(minute));
                submit("d" + day + "-" + minute, at);
            }
        }

        ArrivalRate rate = history.processes(START.plus(Duration.ofDays(4))).get(0).rate();

        assertThat(rate.profile()).isEqualTo(ArrivalRate.Profile.HourOfDay);
        assertThat(rate.perHour(START.plus(Duration.ofHours(10)))).as("working hours").isGreaterThan(4.5);
        assertThat(rate.perHour(START.plus(Duration.ofHours(3)))).as("night").isLessThan(1.0);
        assertThat(rate.nextChange(START.plus(Duration.ofMinutes(90)))).isEqualTo(START.plus(Duration.ofHours(2)));
    }

    @Test
    void eachLocalQueueAndPriorityClassHasItsOwnProcessCopyingItsLatestWorkloads() {
        for (int i = 0; i < 150; i++) {
            Instant at = START.plus(Duration.ofMinutes(i));
            history.record(workload("a" + i).queue("lq").request("cpu", "1").queuedAt(at).build(), at);
            Workload other = new Workload("b" + i, "default", "b" + i, "other", 5, at,
                    workload("shape").request("cpu", "2").build().podSets(), "high", null);
            history.record(other, at);
        }

        List<ArrivalProcess> processes = history.processes(START.plus(Duration.ofMinutes(150)));

        assertThat(processes).extracting(ArrivalProcess::key).containsExactly(new ArrivalKey("default", "lq", null),
                new ArrivalKey("default", "other", "high"));
        assertThat(processes.get(0).recent()).hasSize(ArrivalHistory.TEMPLATES)
                .extracting(Workload::name).contains("a149").doesNotContain("a0");
        assertThat(processes.get(1).recent()).allSatisfy(w -> assertThat(w.priority()).isEqualTo(5));
    }
}
