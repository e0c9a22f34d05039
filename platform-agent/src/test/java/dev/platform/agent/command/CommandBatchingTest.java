package dev.platform.agent.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.Agent;
import dev.platform.agent.AgentSettings;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.simulation.SimulatedCluster;
import dev.platform.agent.simulation.SimulatedClusterLayout;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** Results travel in batches while each workload's commands keep their order and their one effect. */
class CommandBatchingTest {

    private static final Duration PATIENCE = Duration.ofSeconds(15);

    private FakeScheduler scheduler;
    private SimulatedCluster cluster;
    private Agent agent;
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void start() throws Exception {
        scheduler = new FakeScheduler();
        cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC());
        agent = new Agent(AgentSettings.of(scheduler.url(), "sim", FakeScheduler.TOKEN, "sim-agent"), cluster,
                new SoleReplica(), Clock.systemUTC(), registry);
        agent.start();
    }

    @AfterEach
    void stop() {
        agent.close();
        scheduler.close();
    }

    @Test
    void everyFinalResultGoesThroughTheBatchEndpointOnce() {
        IntStream.rangeClosed(1, 300).forEach(i -> scheduler.enqueue(start(i, "wl-" + i)));

        await().atMost(PATIENCE).until(() -> scheduler.results().size() >= 300);

        assertThat(scheduler.results()).extracting(CommandResult::commandId)
                .containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 300).mapToObj(i -> (long) i).toList());
        assertThat(scheduler.results()).extracting(CommandResult::status).containsOnly(CommandStatus.SUCCEEDED);
        assertThat(scheduler.resultBatches().stream().mapToInt(Integer::intValue).sum()).isEqualTo(300);
    }

    @Test
    void aWorkloadsResultsArriveInCommandOrderAmongOtherWorkloadsResults() {
        for (int i = 0; i < 20; i++) {
            scheduler.enqueue(start(100 + 4L * i, "wl-a"));
            scheduler.enqueue(stop(101 + 4L * i, "wl-a"));
            scheduler.enqueue(start(102 + 4L * i, "wl-other-" + i));
            scheduler.enqueue(stop(103 + 4L * i, "wl-other-" + i));
        }

        await().atMost(PATIENCE).until(() -> scheduler.results().size() >= 80);

        List<Long> ofA = scheduler.results().stream().map(CommandResult::commandId)
                .filter(id -> id % 4 == 0 || id % 4 == 1).toList();
        assertThat(ofA).isSorted().hasSize(40);
        for (int i = 0; i < 20; i++) {
            long first = 102 + 4L * i;
            assertThat(scheduler.results().stream().map(CommandResult::commandId)
                    .filter(id -> id == first || id == first + 1).toList()).containsExactly(first, first + 1);
        }
    }

    @Test
    void aRedeliveredStopIsExecutedOnceAndAnsweredWithItsFirstResult() {
        scheduler.enqueue(start(1, "wl-1"));
        await().atMost(PATIENCE).until(() -> !cluster.podsOf("wl-1").isEmpty());
        scheduler.enqueue(stop(2, "wl-1"));
        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(2).size() == 1);
        CommandResult first = scheduler.resultsOf(2).get(0);

        scheduler.redeliverAcknowledged();

        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(2).size() == 2);
        assertThat(first.status()).isEqualTo(CommandStatus.SUCCEEDED);
        assertThat(first.message()).startsWith("JobSet suspended");
        assertThat(scheduler.resultsOf(2)).containsExactly(first, first);
        assertThat(registry.get("platform.agent.command").tag("type", "STOP").timer().count()).isEqualTo(1);
        assertThat(cluster.podsOf("wl-1")).isEmpty();
    }

    private static AgentCommand start(long id, String workloadUid) {
        ObjectNode manifest = Agent.json().createObjectNode();
        manifest.putObject("metadata").put("name", workloadUid);
        manifest.putObject("spec").putArray("replicatedJobs").addObject().put("name", "main").put("replicas", 1)
                .putObject("template").putObject("spec").put("parallelism", 1).putObject("template").putObject("spec");
        return new AgentCommand(id, CommandType.START, workloadUid, "default", workloadUid, null,
                new CommandPayload(manifest, "high-priority-job", List.of("sim-cpu"), Map.of(), "cpu"));
    }

    private static AgentCommand stop(long id, String workloadUid) {
        return new AgentCommand(id, CommandType.STOP, workloadUid, "default", workloadUid, null, null);
    }
}
