package dev.platform.agent.scheduler;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.platform.agent.Agent;
import dev.platform.agent.AgentMetrics;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.ReportKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.net.ServerSocket;
import java.net.URI;
import dev.platform.agent.testing.MutableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An agent started beside its scheduler: one line while it waits, one when connected, retries within a second
 * meanwhile (the scheduler is starting), and the normal backoff, with one line per loss and return, afterwards.
 */
class SchedulerReachabilityTest {

    private static final URI SCHEDULER = URI.create("http://scheduler:8080");

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SchedulerReachability reachability = new SchedulerReachability(SCHEDULER, clock);
    private final SplittableRandom random = new SplittableRandom(1);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeEach
    void captureLog() {
        logged.start();
        ((Logger) LoggerFactory.getLogger(SchedulerReachability.class)).addAppender(logged);
    }

    @AfterEach
    void releaseLog() {
        ((Logger) LoggerFactory.getLogger(SchedulerReachability.class)).detachAppender(logged);
    }

    @Test
    void aStartingSchedulerIsWaitedForInOneLineWithRetriesWithinASecondThenTheBackoffHolds() {
        for (int attempt = 0; attempt < 12; attempt++) {
            reachability.unreachable("java.net.ConnectException");
            assertThat(reachability.retryDelay(Backoff.SCHEDULER, attempt, random)).isLessThanOrEqualTo(Duration.ofSeconds(1));
            clock.advance(Duration.ofSeconds(1));
        }
        reachability.answered();
        reachability.answered();

        assertThat(lines()).containsExactly(
                "INFO waiting for the scheduler at http://scheduler:8080 to answer (java.net.ConnectException);"
                        + " retrying each second",
                "INFO connected to the scheduler at http://scheduler:8080");
        assertThat(reachability.retryDelay(Backoff.SCHEDULER, 6, random))
                .as("once connected, the scheduler's backoff").isGreaterThanOrEqualTo(Duration.ofMillis(6400));
    }

    @Test
    void aLostSchedulerIsOneWarningAndItsReturnOneLine() {
        reachability.answered();
        for (int i = 0; i < 5; i++) {
            reachability.unreachable("java.net.ConnectException");
            clock.advance(Duration.ofSeconds(3));
        }
        reachability.answered();

        assertThat(lines()).containsExactly(
                "INFO connected to the scheduler at http://scheduler:8080",
                "WARN lost the scheduler at http://scheduler:8080 (java.net.ConnectException); retrying until it answers",
                "INFO the scheduler at http://scheduler:8080 answers again, after 15 s");
    }

    @Test
    void aSchedulerThatNeverAnswersIsAWarningOnceAfterAMinute() {
        for (int i = 0; i < 200; i++) {
            reachability.unreachable("java.net.UnknownHostException: scheduler");
            clock.advance(Duration.ofSeconds(1));
        }

        assertThat(lines()).hasSize(2);
        assertThat(lines().get(1)).startsWith("WARN the scheduler at http://scheduler:8080 has not answered for 60 s")
                .contains("platform.agent.scheduler-url");
    }

    @Test
    void theClientTellsNoAnswerFromAnErrorAnswer() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        SchedulerClient nobody = client(URI.create("http://127.0.0.1:" + closedPort));
        assertThatThrownBy(() -> nobody.sendReport(report()))
                .isInstanceOfSatisfying(SchedulerUnavailableException.class, e -> assertThat(e.unreachable()).isTrue());
        assertThat(nobody.retryDelay(Backoff.SCHEDULER, 10)).isLessThanOrEqualTo(Duration.ofSeconds(1));

        try (FakeScheduler scheduler = new FakeScheduler()) {
            scheduler.setAvailable(false);
            SchedulerClient answering = client(scheduler.url());
            assertThatThrownBy(() -> answering.sendReport(report()))
                    .isInstanceOfSatisfying(SchedulerUnavailableException.class, e -> assertThat(e.unreachable()).isFalse());
            assertThat(answering.retryDelay(Backoff.SCHEDULER, 10))
                    .as("it answered: the full backoff").isGreaterThanOrEqualTo(Duration.ofSeconds(15));
        }
    }

    private SchedulerClient client(URI url) {
        return new SchedulerClient(url, "sim", FakeScheduler.TOKEN, "sim-agent#test", Agent.json(), new AgentMetrics(new SimpleMeterRegistry()),
                new SchedulerReachability(url, clock));
    }

    private static AgentReport report() {
        return new AgentReport("sim", "agent-1", true, 1, Instant.parse("2026-01-01T00:00:00Z"), ReportKind.FULL,
                List.of(), List.of(), List.of(), List.of());
    }

    private List<String> lines() {
        return logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
    }
}
