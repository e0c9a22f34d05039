package dev.platform.agent.report;

import dev.platform.agent.Agent;
import dev.platform.agent.AgentMetrics;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.scheduler.SchedulerClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The publisher and the cluster call each other; neither may wait for the other while holding its own lock. */
class ReportPublisherTest {

    /**
     * The simulated cluster reports a pod change while holding its lock, and answers "synced?" under the same
     * lock: here the cluster's answer waits for a change reported from another thread, as a command worker
     * starting pods would, and the publisher must take that change meanwhile.
     */
    @Test
    void aChangeReportedWhileThePublisherAsksWhetherTheCachesSyncedIsTakenAtOnce() throws Exception {
        AtomicReference<ReportPublisher> publisher = new AtomicReference<>();
        AtomicReference<String> outcome = new AtomicReference<>();
        CountDownLatch asked = new CountDownLatch(1);
        ReportPublisher reports = new ReportPublisher(new ClusterInventory(),
                new SchedulerClient(URI.create("http://127.0.0.1:9"), "sim", "unused-token-0123456789", "sim-agent#test", Agent.json(),
                        new AgentMetrics(new SimpleMeterRegistry())),
                "sim", "agent-1", Clock.systemUTC(), Duration.ofMillis(10), Duration.ofMinutes(10),
                Duration.ofMinutes(10), Backoff.SCHEDULER, () -> true, () -> {
            if (outcome.get() == null) {
                CompletableFuture<Void> change = CompletableFuture.runAsync(() -> publisher.get().podChanged(
                        new ClusterPod("team-a", "pod-0", "uid-1", "node-0", "Running", true)));
                try {
                    change.get(5, TimeUnit.SECONDS);
                    outcome.set("taken");
                } catch (TimeoutException e) {
                    outcome.set("blocked behind the publisher's lock");
                } catch (Exception e) {
                    outcome.set(e.toString());
                }
                asked.countDown();
            }
            return false;
        });
        publisher.set(reports);
        try {
            reports.sendFullReport();

            assertThat(asked.await(20, TimeUnit.SECONDS)).as("the publisher asked whether the caches synced").isTrue();
            assertThat(outcome.get()).isEqualTo("taken");
        } finally {
            reports.close();
        }
    }
}
