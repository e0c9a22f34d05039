package dev.platform.scheduler.reliability;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.EvictionProgress;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.NodeReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.SeedManifests;
import dev.platform.scheduler.testsupport.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two schedulers on one database and an agent played by the test over the protocol. A TPU slice
 * under the high-priority JobSet fails; the leader decides the hotswap (victim STOP and RESTART
 * committed with the decision) and is killed with SIGKILL before the agent has evicted anything.
 * The follower takes over: the agent, polling it, receives each of the two commands once, the
 * hotswap is decided only once (one event, one Hotswap preemption, no second RESTART or STOP) and
 * it finishes Recovered when the JobSet runs on its new pools.
 */
class LeaderKilledMidHotswapIT {

    private static final String TOKEN = "hotswap-agent-token";
    private static final String CLUSTER = "prod";
    private static final Duration PATIENCE = Duration.ofSeconds(60);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path workDir;

    private long sequence;

    @Test
    void theNewLeaderFinishesTheHotswapExactlyOnce() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("leader_mid_hotswap");
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
        List<String> arguments = new ArrayList<>(PlatformProcess.database(db));
        arguments.addAll(List.of("--platform.agents.tokens." + CLUSTER + "=" + TOKEN, "--platform.hotswap.grace=1s"));
        PlatformProcess a = PlatformProcess.start(workDir, "a", arguments);
        PlatformProcess b = PlatformProcess.start(workDir, "b", arguments);
        try {
            a.awaitUp();
            b.awaitUp();
            PlatformClient api = a.client();
            report(api, ReportKind.FULL, pools(Map.of()), List.of());
            String seed = SeedManifests.read("seed-kueue-and-hotswap.yaml").replace("nominalQuota: 32", "nominalQuota: 64");
            assertThat(api.postYaml("/api/v1/manifests", seed).status()).isEqualTo(200);

            List<AgentCommand> starts = await().atMost(PATIENCE).until(() -> poll(api), c -> c.size() == 2);
            for (AgentCommand start : starts) {
                acknowledge(api, start, "JobSet created");
            }
            Map<String, AgentCommand> startOf = Map.of(starts.get(0).name(), starts.get(0), starts.get(1).name(),
                    starts.get(1));
            AgentCommand high = startOf.get("high-jax-trillium");
            AgentCommand low = startOf.get("low-jax-trillium");
            report(api, ReportKind.DELTA, List.of(), List.of(running(high, high.payload().nodePools()),
                    running(low, low.payload().nodePools())));
            await().atMost(PATIENCE).until(() -> jdbc.sql("SELECT count(*) FROM workload WHERE state = 'Running'")
                    .query(Long.class).single() == 2);

            String failing = high.payload().nodePools().get(1);
            report(api, ReportKind.DELTA, pools(Map.of(failing, HealthState.UNHEALTHY)), List.of());
            await().atMost(PATIENCE).until(() -> jdbc.sql("""
                    SELECT count(*) FROM agent_command WHERE type IN ('STOP', 'RESTART') AND state = 'Pending'""")
                    .query(Long.class).single() == 2);

            Map<String, Object> leader = jdbc.sql("SELECT epoch, holder FROM scheduler_leader").query().singleRow();
            PlatformProcess leaderProcess = ((String) leader.get("holder")).startsWith(a.pid() + "@") ? a : b;
            PlatformProcess follower = leaderProcess == a ? b : a;
            leaderProcess.kill();
            PlatformClient survivor = follower.client();
            await().atMost(PATIENCE).until(() -> jdbc.sql("SELECT holder FROM scheduler_leader").query(String.class)
                    .single().startsWith(follower.pid() + "@"));

            List<AgentCommand> hotswap = poll(survivor);
            assertThat(hotswap).extracting(c -> c.type() + " " + c.name())
                    .containsExactlyInAnyOrder("STOP low-jax-trillium", "RESTART high-jax-trillium");
            for (AgentCommand command : hotswap) {
                acknowledge(survivor, command, command.type() + " done");
            }
            AgentCommand restart = hotswap.stream().filter(c -> c.type().name().equals("RESTART")).findFirst()
                    .orElseThrow();
            report(survivor, ReportKind.DELTA, List.of(), List.of(running(restart, restart.payload().nodePools()),
                    new WorkloadStatusReport(low.workloadUid(), "default", low.name(), WorkloadPhase.SUSPENDED, 0, 0,
                            0, 0, List.of(), List.of())));

            await().atMost(PATIENCE).until(() -> jdbc.sql("SELECT outcome FROM hotswap_event").query(String.class)
                    .list(), outcomes -> outcomes.equals(List.of("Recovered")));
            assertThat(poll(survivor)).as("nothing left to run, nothing delivered twice").isEmpty();
            assertThat(jdbc.sql("SELECT type || ' ' || name FROM agent_command ORDER BY seq").query(String.class).list())
                    .containsExactlyInAnyOrder("START high-jax-trillium", "START low-jax-trillium",
                            "STOP low-jax-trillium", "RESTART high-jax-trillium");
            assertThat(jdbc.sql("SELECT count(*) FROM preemption_event WHERE reason = 'Hotswap'").query(Long.class)
                    .single()).isEqualTo(1);
            assertThat(jdbc.sql("SELECT restarts FROM workload WHERE name = 'high-jax-trillium'").query(Integer.class)
                    .single()).isEqualTo(1);
            assertThat(jdbc.sql("SELECT state FROM workload WHERE name = 'high-jax-trillium'").query(String.class)
                    .single()).isEqualTo("Running");
        } finally {
            a.close();
            b.close();
        }
    }

    /** Four 4x4 v6e slices of four hosts with four chips each, healthy unless told otherwise. */
    private static List<NodePoolReport> pools(Map<String, HealthState> states) {
        return IntStream.range(0, 4).mapToObj(i -> {
            String pool = "pool-" + i;
            HealthState state = states.getOrDefault(pool, HealthState.HEALTHY);
            List<NodeHealthReason> reasons = state == HealthState.HEALTHY ? List.of() : List.of(NodeHealthReason.NOT_READY);
            return new NodePoolReport(pool, "tpu-v6e-slice", "4x4", state, reasons,
                    IntStream.range(0, 4).mapToObj(n -> new NodeReport(pool + "-node-" + n, state, reasons, 4, 4, null))
                            .toList());
        }).filter(p -> states.isEmpty() || states.containsKey(p.name())).toList();
    }

    private static WorkloadStatusReport running(AgentCommand command, List<String> pools) {
        return new WorkloadStatusReport(command.workloadUid(), "default", command.name(), WorkloadPhase.RUNNING, 0, 8,
                0, 0, pools.stream().map(p -> p + "-node-0").toList(), pools);
    }

    private void report(PlatformClient api, ReportKind kind, List<NodePoolReport> pools,
                        List<WorkloadStatusReport> workloads) {
        AgentReport report = new AgentReport(CLUSTER, "test-agent", true, ++sequence, Instant.now(), kind, pools,
                List.of(), workloads, List.of());
        Response response = api.send("POST", "/api/v1/agent/clusters/" + CLUSTER + "/reports", agent(),
                "application/json", JSON.writeValueAsString(report));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
    }

    private static List<AgentCommand> poll(PlatformClient api) {
        Response response = api.send("GET", "/api/v1/agent/clusters/" + CLUSTER + "/commands?waitSeconds=0", agent(),
                null, null);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return JSON.readValue(response.body(), new TypeReference<List<AgentCommand>>() {
        });
    }

    private static void acknowledge(PlatformClient api, AgentCommand command, String message) {
        CommandResult result = new CommandResult(command.id(), CommandStatus.SUCCEEDED, message,
                new EvictionProgress(0, 0, List.of()), "test-agent", Instant.now());
        Response response = api.send("POST", "/api/v1/agent/clusters/" + CLUSTER + "/commands/" + command.id()
                + "/result", agent(), "application/json", JSON.writeValueAsString(result));
        assertThat(response.status()).as(response.body()).isEqualTo(204);
    }

    private static Map<String, String> agent() {
        return Map.of("Authorization", "Bearer " + TOKEN);
    }
}
