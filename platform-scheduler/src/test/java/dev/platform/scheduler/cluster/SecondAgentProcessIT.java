package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformProcess;
import dev.platform.scheduler.testsupport.TestDatabase;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The README's agent command run a second time while the first agent runs a JobSet: two agent processes (the
 * packaged jar, same cluster, same agent id) against one scheduler process. The second one's simulated cluster is
 * empty, so a FULL report of it, were it heard, would requeue the running workload as missing and both agents would
 * carry out the DELETE and the START. The scheduler refuses it while the first is alive: the second agent logs why,
 * is never heard, takes no command, and the workload runs on, untouched, in the first agent's cluster.
 */
class SecondAgentProcessIT {

    /** FULL reports this often, so the refused agent tries several while the test watches. */
    private static final List<String> AGENT_SETTINGS = List.of("--platform.agent.full-report-interval=5s");
    /** Start-up on a machine busy with other builds can take minutes. */
    private static final Duration START_PATIENCE = Duration.ofMinutes(10);
    private static final Pattern INSTANCE = Pattern.compile("agent instance (\\S+) starting for cluster sim");

    /** Kept when the test fails: every process's log is there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path workDir;

    @Test
    void aSecondAgentForTheClusterIsRefusedSaysWhyAndEvictsNothing() throws Exception {
        TestDatabase.Connection db = TestDatabase.createDatabase("second_agent_process");
        JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.username(), db.password()));
        int firstWebhookPort = PlatformProcess.freePort();
        try (PlatformProcess scheduler = PlatformProcess.start(workDir, "scheduler", PlatformProcess.database(db))
                .awaitUp(START_PATIENCE);
             PlatformProcess first = PlatformProcess.startSimulatedAgent(workDir, "agent-first", scheduler.url(), "sim",
                     withSetting(PlatformProcess.WEBHOOK_PORT + firstWebhookPort)).awaitUp(START_PATIENCE)) {
            PlatformClient api = scheduler.client();
            assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "2", "Never")).status()).isEqualTo(200);
            PlatformClient.Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads",
                    Manifests.onePodJobSet("long", Map.of("kueue.x-k8s.io/queue-name", "lq"),
                            Map.of("platform.dev/simulated-runtime", "1h"), "1"));
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
            await().atMost(Duration.ofMinutes(3)).until(() -> state(api), "Running"::equals);
            String firstInstance = instance(first);
            assertThat(speaker(jdbc)).isEqualTo(firstInstance);

            String secondInstance;
            try (PlatformProcess second = PlatformProcess.startSimulatedAgent(workDir, "agent-second", scheduler.url(),
                    "sim", AGENT_SETTINGS).awaitUp(START_PATIENCE)) {
                secondInstance = instance(second);
                assertThat(secondInstance).isNotEqualTo(firstInstance);
                String refusal = await().atMost(Duration.ofSeconds(60)).until(() -> log(second).lines()
                        .filter(line -> line.contains("not delivered (refused: ")).findFirst().orElse(null), l -> l != null);
                assertThat(refusal).contains("WARN").contains("cluster sim is served by agent instance " + firstInstance)
                        .contains("agent instance " + secondInstance + " is refused").contains("stop this agent");

                // Longer than the missing-JobSet grace (5 s) and two of the second agent's FULL-report intervals: a
                // heard report of its empty cluster would have requeued the workload within it.
                await().during(Duration.ofSeconds(15)).atMost(Duration.ofSeconds(30)).until(() ->
                        "Running".equals(state(api)) && firstInstance.equals(speaker(jdbc))
                                && commands(jdbc).equals(List.of("START")));
                assertThat(log(second)).as("the second agent was never heard").doesNotContain("the scheduler hears this agent");
                assertThat(log(scheduler)).contains("of agent instance " + secondInstance + " refused: agent instance "
                        + firstInstance + " speaks for the cluster").doesNotContain("speaks for the cluster, after");
                assertThat(events(api)).noneMatch(e -> e.contains("JobSetMissing") || e.startsWith("Evicted/"));
                assertThat(second.client().get("/simulation/jobsets").json().valueStream().toList())
                        .as("the second agent took no command").isEmpty();
                assertThat(first.client().get("/simulation/jobsets").json().valueStream()
                        .filter(j -> j.path("name").asString().equals("long") && !j.path("suspended").asBoolean())
                        .toList()).as("the JobSet runs on in the first agent's cluster").hasSize(1);
                PlatformClient.Response poll = api.as(TestIdentity.agentToken("sim"))
                        .send("GET", AgentProtocol.COMMANDS_PATH.replace("{cluster}", "sim") + "?waitSeconds=0",
                                Map.of(AgentProtocol.INSTANCE_HEADER, secondInstance), null, null);
                assertThat(poll.status()).as("a command poll of the second agent").isEqualTo(409);
            }

            // The refused agent's stop gives up nothing: the first still speaks and the workload runs on.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() ->
                    "Running".equals(state(api)) && firstInstance.equals(speaker(jdbc)));

            // A second agent started with the first one's ports (the same command run twice) fails to start, and says
            // nothing to the scheduler before it is up.
            try (PlatformProcess portTaken = PlatformProcess.startSimulatedAgent(workDir, "agent-port-taken",
                    scheduler.url(), "sim", withSetting(PlatformProcess.WEBHOOK_PORT + firstWebhookPort))) {
                assertThat(portTaken.awaitExit(START_PATIENCE)).isNotZero();
                assertThat(log(portTaken)).contains("Address already in use").doesNotContain("agent instance ");
            }
            assertThat(log(scheduler).lines().filter(line -> line.contains(" refused: agent instance ")))
                    .as("reports refused by the scheduler: the second agent's alone").isNotEmpty()
                    .allMatch(line -> line.contains("of agent instance " + secondInstance + " refused"));
            assertThat(state(api)).isEqualTo("Running");
            assertThat(speaker(jdbc)).isEqualTo(firstInstance);
            assertThat(commands(jdbc)).containsExactly("START");
        }
    }

    private static List<String> withSetting(String setting) {
        List<String> settings = new ArrayList<>(AGENT_SETTINGS);
        settings.add(setting);
        return settings;
    }

    private static String instance(PlatformProcess agent) {
        return await().atMost(Duration.ofSeconds(60)).until(() -> {
            Matcher m = INSTANCE.matcher(log(agent));
            return m.find() ? m.group(1) : null;
        }, i -> i != null);
    }

    private static String speaker(JdbcClient jdbc) {
        return jdbc.sql("SELECT coalesce(agent_instance, '') FROM cluster WHERE name = 'sim'").query(String.class)
                .single();
    }

    private static List<String> commands(JdbcClient jdbc) {
        return jdbc.sql("SELECT type FROM agent_command ORDER BY seq").query(String.class).list();
    }

    private static String state(PlatformClient api) {
        return api.get("/api/v1/namespaces/team-a/workloads/long").json().get("state").asString();
    }

    private static List<String> events(PlatformClient api) {
        return api.get("/api/v1/namespaces/team-a/workloads/long/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()).toList();
    }

    private static String log(PlatformProcess process) throws IOException {
        return Files.readString(process.log());
    }
}
