package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.simulation.SimulatedCluster;
import dev.platform.agent.simulation.SimulatedClusterLayout;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.node.ObjectNode;

/** The agent as the scheduler will run it in-process for the demo: plain classes on a simulated cluster. */
class SimulatedAgentTest {

    private FakeScheduler scheduler;
    private Agent agent;

    @AfterEach
    void stop() {
        agent.close();
        if (scheduler != null) {
            scheduler.close();
        }
    }

    @Test
    void aQuietClusterStillReportsEveryHeartbeatSoTheSchedulerDoesNotTakeItForStale() throws Exception {
        scheduler = new FakeScheduler();
        SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC());
        AgentSettings defaults = AgentSettings.of(scheduler.url(), "sim", FakeScheduler.TOKEN, "sim-agent");
        agent = new Agent(new AgentSettings(defaults.schedulerUrl(), defaults.cluster(), defaults.token(),
                defaults.agentId(), defaults.coalescingWindow(), defaults.commandWaitSeconds(),
                defaults.schedulerBackoff(), defaults.evictionPolicy(), Duration.ofMillis(300)),
                cluster, new SoleReplica(), Clock.systemUTC());
        agent.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.reports().size() >= 4);

        List<AgentReport> reports = scheduler.reports();
        assertThat(reports.get(0).kind()).isEqualTo(ReportKind.FULL);
        assertThat(reports.subList(1, reports.size())).allSatisfy(r -> {
            assertThat(r.kind()).isEqualTo(ReportKind.DELTA);
            assertThat(r.nodePools()).isEmpty();
            assertThat(r.workloads()).isEmpty();
        });
        assertThat(reports).extracting(AgentReport::sequence).doesNotHaveDuplicates().isSorted();
    }

    /**
     * Started before its scheduler, as the README's command starts both: the agent says once that it waits, keeps
     * retrying within a second (its backoff grew to 12 s, and the first command came that late), and says once that
     * it is connected; no warning meanwhile.
     */
    @Test
    void anAgentStartedBeforeItsSchedulerWaitsQuietlyAndConnectsWithinASecondOfItListening() throws Exception {
        int port;
        try (ServerSocket reserved = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
            port = reserved.getLocalPort();
        }
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger agentLogs = (Logger) LoggerFactory.getLogger("dev.platform.agent");
        Level level = agentLogs.getLevel();
        agentLogs.setLevel(Level.DEBUG);
        agentLogs.addAppender(logged);
        try {
            agent = new Agent(AgentSettings.of(URI.create("http://127.0.0.1:" + port), "sim", FakeScheduler.TOKEN,
                    "sim-agent"), new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC()),
                    new SoleReplica(), Clock.systemUTC());
            agent.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> logged(logged).stream()
                    .filter(e -> e.getFormattedMessage().contains("not delivered")).count() >= 7);

            scheduler = new FakeScheduler(port);
            await("the next report, a second at most after the seventh failure").atMost(Duration.ofSeconds(4))
                    .until(() -> !scheduler.reports().isEmpty());
            // The agent says it is connected once the scheduler's answer is back, a moment after the report landed.
            await("the agent's word that it is connected").atMost(Duration.ofSeconds(4))
                    .until(() -> logged(logged).stream()
                            .anyMatch(e -> e.getFormattedMessage().startsWith("connected to the scheduler")));
        } finally {
            agentLogs.detachAppender(logged);
            agentLogs.setLevel(level);
        }

        List<String> said = logged(logged).stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .filter(e -> e.getLoggerName().endsWith("SchedulerReachability") || e.getLevel() == Level.WARN)
                .map(e -> e.getLevel() + " " + e.getFormattedMessage()).toList();
        assertThat(said).hasSize(2);
        assertThat(said.get(0)).startsWith("INFO waiting for the scheduler at http://127.0.0.1:" + port);
        assertThat(said.get(1)).isEqualTo("INFO connected to the scheduler at http://127.0.0.1:" + port);
    }

    @Test
    void aFullReportGoesEveryIntervalSoTheSchedulerSeesWhatLeftTheCluster() throws Exception {
        scheduler = new FakeScheduler();
        SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC());
        agent = new Agent(AgentSettings.of(scheduler.url(), "sim", FakeScheduler.TOKEN, "sim-agent")
                .withFullReportInterval(Duration.ofMillis(500)), cluster, new SoleReplica(), Clock.systemUTC());
        agent.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> !scheduler.reports().isEmpty());
        scheduler.enqueue(command(1, CommandType.START, List.of("sim-v6e-4x4-0", "sim-v6e-4x4-1")));
        await().atMost(Duration.ofSeconds(10)).until(() -> scheduler.reports().stream()
                .anyMatch(r -> r.workloads().stream().anyMatch(w -> w.phase() == WorkloadPhase.RUNNING)));

        cluster.deleteJobSet("default", "demo");
        int before = scheduler.reports().size();

        AgentReport full = await().atMost(Duration.ofSeconds(10)).until(() -> {
            List<AgentReport> since = scheduler.reports().subList(before, scheduler.reports().size());
            return since.stream().filter(r -> r.kind() == ReportKind.FULL).findFirst().orElse(null);
        }, r -> r != null);
        assertThat(full.nodePools()).hasSize(5);
        assertThat(full.workloads()).as("the deleted JobSet is not in it (or only as deleted)")
                .allSatisfy(w -> assertThat(w.phase()).isEqualTo(WorkloadPhase.DELETED));
        assertThat(scheduler.reports().stream().filter(r -> r.kind() == ReportKind.FULL).count())
                .as("FULL again and again, not only at the start").isGreaterThanOrEqualTo(2);
    }

    @Test
    void runsAWorkloadOnItsPoolsAndReportsAPoolFailureAndTheHotswap() throws Exception {
        scheduler = new FakeScheduler();
        SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC());
        agent = new Agent(AgentSettings.of(URI.create(scheduler.url().toString()), "sim", FakeScheduler.TOKEN, "sim-agent"),
                cluster, new SoleReplica(), Clock.systemUTC());
        agent.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> !scheduler.reports().isEmpty());
        assertThat(scheduler.reports().get(0).nodePools()).hasSize(5);

        scheduler.enqueue(command(1, CommandType.START, List.of("sim-v6e-4x4-0", "sim-v6e-4x4-1")));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(scheduler.resultsOf(1))
                .extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lastWorkloadReport())
                .satisfies(w -> assertThat(w.nodePools()).containsExactly("sim-v6e-4x4-0", "sim-v6e-4x4-1")));

        cluster.failPool("sim-v6e-4x4-1");
        await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(scheduler.reports().stream()
                .flatMap(r -> r.nodePools().stream()).filter(p -> p.name().equals("sim-v6e-4x4-1")).map(NodePoolReport::state))
                .contains(HealthState.UNHEALTHY));

        scheduler.enqueue(command(2, CommandType.RESTART, List.of("sim-v6e-4x4-0", "sim-v6e-4x4-2")));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(scheduler.resultsOf(2))
                .extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(lastWorkloadReport()).satisfies(w -> {
            assertThat(w.phase()).isEqualTo(WorkloadPhase.RUNNING);
            assertThat(w.podsRunning()).isEqualTo(8);
            assertThat(w.nodePools()).containsExactly("sim-v6e-4x4-0", "sim-v6e-4x4-2");
        }));
    }

    @Test
    void takesNoCommandBeforeItsWatchCachesHaveSynced() throws Exception {
        scheduler = new FakeScheduler();
        AtomicBoolean synced = new AtomicBoolean(false);
        Cluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), Clock.systemUTC()) {
            @Override
            public synchronized boolean hasSynced() {
                return synced.get() && super.hasSynced();
            }
        };
        agent = new Agent(AgentSettings.of(URI.create(scheduler.url().toString()), "sim", FakeScheduler.TOKEN, "sim-agent"),
                cluster, new SoleReplica(), Clock.systemUTC());
        agent.start();
        scheduler.enqueue(command(1, CommandType.START, List.of("sim-v6e-4x4-0", "sim-v6e-4x4-1")));

        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                .until(() -> scheduler.resultsOf(1).isEmpty() && scheduler.reports().isEmpty());

        synced.set(true);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(scheduler.resultsOf(1))
                .extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED));
    }

    private dev.platform.api.agent.WorkloadStatusReport lastWorkloadReport() {
        return scheduler.reports().stream()
                .map(AgentReport::workloads)
                .flatMap(List::stream)
                .filter(w -> w.workloadUid().equals("wl-sim"))
                .reduce((first, second) -> second)
                .orElseThrow(AssertionError::new);
    }

    private AgentCommand command(long id, CommandType type, List<String> pools) {
        ObjectNode manifest = Agent.json().createObjectNode();
        manifest.putObject("metadata").put("name", "demo").putObject("annotations")
                .put("alpha.jobset.sigs.k8s.io/exclusive-topology", "cloud.google.com/gke-nodepool");
        ObjectNode job = manifest.putObject("spec").putArray("replicatedJobs").addObject().put("name", "slice").put("replicas", 2);
        job.putObject("template").putObject("spec").put("parallelism", 4).put("completions", 4)
                .putObject("template").putObject("spec").putObject("nodeSelector")
                .put("cloud.google.com/gke-tpu-topology", "4x4");
        return new AgentCommand(id, type, "wl-sim", "default", "demo", null,
                new CommandPayload(manifest, "high-priority-job", pools,
                        Map.of("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"), "tpu-v6e-slice"));
    }

    /** What was logged so far: the appender adds under its own lock from the agent's threads, so copy under it. */
    private static List<ILoggingEvent> logged(ListAppender<ILoggingEvent> appender) {
        synchronized (appender) {
            return List.copyOf(appender.list);
        }
    }
}
