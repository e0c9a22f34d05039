package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A second agent for a cluster that already has one, started by mistake (the README's command run twice): its
 * simulated cluster is empty, and were its FULL report heard, the running JobSet would be requeued as missing and
 * both agents would carry out the DELETE and the START. The scheduler refuses its reports and command polls while
 * the first one is alive, telling it what is wrong; once the first one stops, it hands over at once.
 */
class SecondAgentTest extends SimulatedClusterTest {

    @Test
    void aSecondAgentIsRefusedWhileTheFirstIsAliveAndEvictsNothing() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "2", "Never")).status()).isEqualTo(200);
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet("long",
                Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of("platform.dev/simulated-runtime", "1h"), "1"));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20)).until(() -> state("long"), "Running"::equals);
        SimulatedAgent first = agent;
        assertThat(speaker()).isEqualTo(first.instance());

        SimulatedAgent second = SimulatedAgent.startUnchecked(port, "sim", TestIdentity.agentToken("sim"));
        agent = second;
        // longer than the missing-JobSet grace: a heard FULL report of the empty cluster would have requeued it
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() ->
                "Running".equals(state("long")) && speaker().equals(first.instance()) && commandTypes().equals(
                        List.of("START")));
        assertThat(events()).noneMatch(e -> e.contains("JobSetMissing"));
        assertThat(first.cluster().jobSet("team-a", "long")).isPresent();
        assertThat(second.cluster().jobSet("team-a", "long")).as("the second agent took no command").isEmpty();

        Response poll = api.as(TestIdentity.agentToken("sim")).send("GET", AgentProtocol.COMMANDS_PATH.replace(
                "{cluster}", "sim") + "?waitSeconds=0", Map.of(AgentProtocol.INSTANCE_HEADER, second.instance()),
                null, null);
        assertThat(poll.status()).isEqualTo(409);
        assertThat(poll.json().get("title").asString()).isEqualTo(AgentProtocol.ANOTHER_AGENT_TITLE);
        assertThat(poll.json().get("detail").asString()).contains(first.instance()).contains(second.instance())
                .contains("stop this agent");
        assertThat(poll.header("Retry-After")).isNotBlank();

        first.close();
        await().atMost(Duration.ofSeconds(40)).until(() -> speaker().equals(second.instance()));
        await().atMost(Duration.ofSeconds(30)).until(() -> events().stream().anyMatch(e -> e.contains("JobSetMissing")));
    }

    private String speaker() {
        return jdbc.sql("SELECT coalesce(agent_instance, '') FROM cluster WHERE name = 'sim'").query(String.class)
                .single();
    }

    private List<String> commandTypes() {
        return jdbc.sql("SELECT type FROM agent_command ORDER BY seq").query(String.class).list();
    }

    private String state(String name) {
        return api.get("/api/v1/namespaces/team-a/workloads/" + name).json().get("state").asString();
    }

    private List<String> events() {
        return api.get("/api/v1/namespaces/team-a/workloads/long/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()).toList();
    }
}
