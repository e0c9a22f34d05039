package dev.platform.scheduler.scenario;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.scheduling.SchedulingLoop;
import dev.platform.scheduler.testsupport.DatabaseCleaner;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformIntegrationTest;
import dev.platform.scheduler.testsupport.TestDatabase;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static dev.platform.scheduler.testsupport.YamlTree.list;
import static dev.platform.scheduler.testsupport.YamlTree.map;
import static dev.platform.scheduler.testsupport.YamlTree.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scenario files with {@code waitForPodsReady} (the leader's lifecycle timers) replayed through the REST API
 * and the agent protocol, in real time: the files use second-long timeouts and backoffs, this context runs with
 * exactly those settings (each file must state them), and Awaitility waits for what the core runner reaches by
 * moving its clock. It needs its own context (the settings are global) and so its own database.
 *
 * <p>For each file: the tables are emptied; with {@code cluster: true} the test plays the agent of cluster
 * {@code prod-1} and reports one healthy node pool of four nodes, then a report every second (a cluster silent for longer than the agents'
 * staleness window has no usable pools), so every admission is placed there and gets a START command;
 * the configuration and the pending workloads are posted as Kueue manifests. Then, step by step:
 * <ul>
 *   <li>{@code podsReady: w}: the agent reports w's JobSet running with all its pods ready; w must turn Running
 *       and, unless it has a maximum execution time, stay so with its requeueState unchanged for longer than the
 *       pods-ready timeout;</li>
 *   <li>{@code startFailed: {workload, transient, message}}: the agent answers w's latest START as FAILED, saying
 *       whether the failure is transient; a workload whose failure is not transient must end Failed;</li>
 *   <li>{@code lifecycle.requeued}: the workload's {@code requeueState.count} reaches the count and its timeline
 *       shows the eviction with that reason; {@code lifecycle.deactivated}: it turns inactive, its timeline shows
 *       DeactivationTarget with that reason (and, for MaximumExecutionTimeExceeded, Kueue's event);</li>
 *   <li>{@code admitted}: each named workload is (again) Admitted or Running. Expectations that nothing is
 *       admitted at one instant ({@code admitted: {}}) have no eventual meaning and are left to the core runner.</li>
 * </ul>
 */
@PlatformIntegrationTest
@TestPropertySource(properties = {
        "platform.scheduler.wait-for-pods-ready.timeout=10s",
        "platform.scheduler.wait-for-pods-ready.recovery-timeout=10s",
        "platform.scheduler.wait-for-pods-ready.requeuing-strategy.timestamp=Eviction",
        "platform.scheduler.wait-for-pods-ready.requeuing-strategy.backoff-base-seconds=1",
        "platform.scheduler.wait-for-pods-ready.requeuing-strategy.backoff-max-seconds=4",
        "platform.scheduler.wait-for-pods-ready.requeuing-strategy.backoff-limit-count=2",
        TestDatabase.DATABASE_PROPERTY + "=lifecycle"})
class LifecycleScenarioRestTest {

    /** The files' waitForPodsReady, as this context's properties set it. */
    private static final Map<String, Object> SETTINGS = Map.of("enable", true, "timeout", "10s",
            "recoveryTimeout", "10s", "requeuingStrategy", Map.of("timestamp", "Eviction", "backoffBaseSeconds", 1,
                    "backoffMaxSeconds", 4, "backoffLimitCount", 2));
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(40);
    private static final String CLUSTER = "prod-1";
    private static final String POOL = "cpu-0";
    /** Nodes of the pool: at least as many as the pods of any pod set in the files. */
    private static final int NODES = 4;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    SchedulingLoop loop;

    @TestFactory
    Stream<DynamicTest> scenarios() {
        PlatformClient api = new PlatformClient(port);
        return ScenarioFile.all().stream().filter(ScenarioFile::lifecycle)
                .map(s -> DynamicTest.dynamicTest(s.file(), () -> new Replay(s, api).run()));
    }

    private final class Replay {

        private final ScenarioFile scenario;
        private final PlatformClient api;
        private final PlatformClient agent;
        private final Map<String, Map<String, Object>> workloads = new LinkedHashMap<>();
        /** The workloads the agent reports running, by name. */
        private final Map<String, WorkloadStatusReport> running = new ConcurrentHashMap<>();
        private long sequence;

        Replay(ScenarioFile scenario, PlatformClient api) {
            this.scenario = scenario;
            this.api = api;
            this.agent = api.as(TestIdentity.agentToken(CLUSTER));
        }

        void run() {
            assertThat(scenario.doc().get("waitForPodsReady")).as(where("the settings this test runs with"))
                    .isEqualTo(SETTINGS);
            DatabaseCleaner.clean(jdbc, loop);
            ScheduledExecutorService heartbeat = Executors.newSingleThreadScheduledExecutor();
            try {
                if (Boolean.TRUE.equals(scenario.doc().get("cluster"))) {
                    report();
                    heartbeat.scheduleWithFixedDelay(this::report, 1, 1, TimeUnit.SECONDS);
                }
                replay();
            } finally {
                heartbeat.shutdownNow();
            }
        }

        private void replay() {
            apply(KueueManifests.configuration(scenario, true));
            List<Map<String, Object>> docs = new ArrayList<>();
            for (Map<String, Object> w : scenario.section("pending")) {
                workloads.put(str(w.get("name")), w);
                docs.add(KueueManifests.workload(w));
            }
            apply(KueueManifests.yaml(docs));
            expect(map(scenario.doc().get("expect")));
            for (Map<String, Object> step : scenario.section("steps")) {
                for (Map<String, Object> action : list(step.get("do"))) {
                    act(action);
                }
                expect(map(step.get("expect")));
            }
        }

        private void act(Map<String, Object> action) {
            if (action.containsKey("podsReady")) {
                String name = str(action.get("podsReady"));
                int pods = list(workloads.get(name).get("podSets")).stream()
                        .mapToInt(ps -> ((Number) ps.getOrDefault("count", 1)).intValue()).sum();
                String uid = status(name).get("uid").asString();
                running.put(name, new WorkloadStatusReport(uid, "default", name, WorkloadPhase.RUNNING, 0, pods, 0, 0,
                        List.of(POOL + "-node-0"), List.of(POOL), pods));
                report();
                JsonNode running = await().atMost(SETTLE).pollInterval(POLL)
                        .until(() -> status(name), s -> "Running".equals(s.get("state").asString()));
                if (!workloads.get(name).containsKey("maximumExecutionTimeSeconds")) {
                    JsonNode requeueState = running.get("requeueState");
                    await().during(Duration.ofSeconds(11)).atMost(SETTLE).pollInterval(Duration.ofMillis(200))
                            .untilAsserted(() -> {
                                JsonNode now = status(name);
                                assertThat(now.get("state").asString()).as(where(name + " keeps running"))
                                        .isEqualTo("Running");
                                assertThat(now.get("requeueState")).as(where(name + " requeueState"))
                                        .isEqualTo(requeueState);
                            });
                }
            } else if (action.containsKey("startFailed")) {
                Map<String, Object> failed = map(action.get("startFailed"));
                String name = str(failed.get("workload"));
                String uid = status(name).get("uid").asString();
                long start = await().atMost(SETTLE).pollInterval(POLL).until(() -> jdbc.sql("""
                                SELECT max(seq) FROM agent_command WHERE workload_uid = ?::uuid AND type = 'START'""")
                        .param(uid).query(Long.class).optional().orElse(null), seq -> seq != null);
                boolean transientFailure = Boolean.TRUE.equals(failed.get("transient"));
                PlatformClient.Response answered = agent.postJson(AgentProtocol.COMMAND_RESULT_PATH
                                .replace("{cluster}", CLUSTER).replace("{id}", Long.toString(start)),
                        JSON.writeValueAsString(new CommandResult(start, CommandStatus.FAILED,
                                str(failed.get("message")), null, "agent-lifecycle", Instant.now(), transientFailure)));
                assertThat(answered.status()).as(where("START result of " + name) + answered.body()).isEqualTo(204);
                if (!transientFailure) {
                    await().atMost(SETTLE).pollInterval(POLL)
                            .until(() -> status(name), s -> "Failed".equals(s.get("state").asString()));
                }
            } else {
                throw new IllegalArgumentException(where("no REST replay for action " + action));
            }
        }

        private void expect(Map<String, Object> expect) {
            Map<String, Object> lifecycle = map(expect.get("lifecycle"));
            map(lifecycle.get("requeued")).forEach((name, spec) -> {
                Map<String, Object> e = map(spec);
                int count = ((Number) e.get("count")).intValue();
                await().atMost(SETTLE).pollInterval(POLL).until(() -> status(name),
                        s -> s.path("requeueState").path("count").asInt() >= count);
                assertThat(events(name)).as(where(name + " evicted for " + e.get("reason")))
                        .anyMatch(ev -> "Evicted".equals(ev.get("type").asString())
                                && str(e.get("reason")).equals(ev.get("reason").asString()));
            });
            map(lifecycle.get("deactivated")).forEach((name, reason) -> {
                await().atMost(SETTLE).pollInterval(POLL).until(() -> status(name),
                        s -> !s.get("active").asBoolean() && "Pending".equals(s.get("state").asString()));
                assertThat(events(name)).as(where(name + " deactivated for " + reason))
                        .anyMatch(ev -> "DeactivationTarget".equals(ev.get("type").asString())
                                && str(reason).equals(ev.get("reason").asString()))
                        .anyMatch(ev -> "Evicted".equals(ev.get("type").asString())
                                && ("DeactivatedDueTo" + reason).equals(ev.get("reason").asString()));
                if ("MaximumExecutionTimeExceeded".equals(reason)) {
                    assertThat(events(name)).anyMatch(ev -> "MaximumExecutionTimeExceeded".equals(ev.get("type").asString()));
                }
            });
            for (String name : map(expect.get("admitted")).keySet()) {
                await().atMost(SETTLE).pollInterval(POLL).until(() -> status(name),
                        s -> List.of("Admitted", "Running").contains(s.get("state").asString()));
                if (Boolean.TRUE.equals(scenario.doc().get("cluster"))) {
                    await().atMost(SETTLE).pollInterval(POLL).alias(where(name + " placed in " + CLUSTER))
                            .until(() -> jdbc.sql("SELECT cluster FROM workload WHERE namespace = 'default' AND name = ?")
                                    .param(name).query(String.class).optional().orElse(null), CLUSTER::equals);
                }
            }
        }

        /**
         * The agent's report: FULL the first time (one healthy node pool), then a DELTA with the workloads running
         * in it, which also tells the scheduler the cluster is still there.
         */
        private synchronized void report() {
            boolean first = sequence == 0;
            AgentReport report = new AgentReport(CLUSTER, "agent-lifecycle", true, ++sequence, Instant.now(),
                    first ? ReportKind.FULL : ReportKind.DELTA, first ? List.of(new NodePoolReport(POOL, null, null,
                    HealthState.HEALTHY, List.of(), IntStream.range(0, NODES).mapToObj(i -> new NodeReport(
                    POOL + "-node-" + i, HealthState.HEALTHY, List.of(), 0, 0, null)).toList())) : List.of(),
                    List.of(), List.copyOf(running.values()), List.of());
            PlatformClient.Response answered = agent.postJson(AgentProtocol.REPORTS_PATH.replace("{cluster}", CLUSTER),
                    JSON.writeValueAsString(report));
            assertThat(answered.status()).as(where("report") + answered.body()).isBetween(200, 204);
        }

        private void apply(String yaml) {
            PlatformClient.Response applied = api.postYaml("/api/v1/manifests", yaml);
            assertThat(applied.status()).as(where("POST /manifests") + applied.body()).isEqualTo(200);
        }

        private JsonNode status(String name) {
            PlatformClient.Response status = api.get("/api/v1/namespaces/default/workloads/" + name);
            assertThat(status.status()).as(where("status of " + name) + status.body()).isEqualTo(200);
            return status.json();
        }

        private List<JsonNode> events(String name) {
            List<JsonNode> out = new ArrayList<>();
            api.get("/api/v1/namespaces/default/workloads/" + name + "/events").json().get("items").forEach(out::add);
            return out;
        }

        private String where(String what) {
            return scenario.file() + " (" + scenario.name() + "): " + what + ": ";
        }
    }
}
