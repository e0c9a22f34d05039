package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.testing.FakeScheduler;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;

/**
 * An agent that cannot come fully up says nothing to its scheduler: the README's command run a second time starts
 * an agent whose port is taken, and that one, before this rule, sent an empty FULL report first, which evicted the
 * running work of the first one's cluster.
 */
class AgentNotUpTest {

    @Test
    void anAgentWhosePortIsTakenSendsNoReportAndTakesNoCommand() throws Exception {
        try (FakeScheduler scheduler = new FakeScheduler();
             ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> SpringApplication.run(AgentApplication.class, "--server.port=" + taken.getLocalPort(),
                    "--server.address=127.0.0.1", "--platform.agent.mode=simulated",
                    "--platform.agent.scheduler-url=" + scheduler.url(), "--platform.agent.cluster-name=sim",
                    "--platform.agent.token=" + FakeScheduler.TOKEN, "--platform.agent.webhook.port=0"))
                    .hasStackTraceContaining("" + taken.getLocalPort());

            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> scheduler.reports().isEmpty() && scheduler.openPolls() == 0);
            assertThat(scheduler.unauthorizedCalls()).isEmpty();
        }
    }
}
