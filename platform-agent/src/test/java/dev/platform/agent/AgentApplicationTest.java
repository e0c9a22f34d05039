package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.cluster.Cluster;
import dev.platform.agent.testing.ApiServerAdmission;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.webhook.CertificateRotation;
import dev.platform.agent.webhook.WebhookServer;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodePoolReport;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.ClassUtils;
import tools.jackson.databind.JsonNode;

/** The Boot application in simulated mode: reports to its scheduler, breaks a slice on request. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class AgentApplicationTest {

    private static final FakeScheduler scheduler = startScheduler();

    @LocalServerPort
    int port;
    @Autowired
    PrometheusMeterRegistry prometheus;
    @Autowired
    ServletWebServerApplicationContext context;
    @Autowired
    Cluster cluster;
    @Autowired
    WebhookServer webhook;
    @Autowired
    CertificateRotation webhookCertificates;

    private static FakeScheduler startScheduler() {
        try {
            return new FakeScheduler();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @DynamicPropertySource
    static void agentSettings(DynamicPropertyRegistry registry) {
        registry.add("platform.agent.mode", () -> "simulated");
        registry.add("platform.agent.scheduler-url", () -> scheduler.url().toString());
        registry.add("platform.agent.cluster-name", () -> "sim");
        registry.add("platform.agent.token", () -> FakeScheduler.TOKEN);
        registry.add("platform.agent.webhook.port", () -> "0");
    }

    @AfterAll
    static void stopScheduler() {
        scheduler.close();
    }

    @Test
    void failingASimulatedPoolOverHttpIsReported() throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> !scheduler.reports().isEmpty());

        HttpResponse<Void> failed = post("/simulation/nodepools/sim-v6e-4x4-2/fail");
        HttpResponse<Void> unknown = post("/simulation/nodepools/no-such-pool/fail");

        assertThat(failed.statusCode()).isEqualTo(204);
        assertThat(unknown.statusCode()).isEqualTo(404);
        await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(scheduler.reports().stream()
                .flatMap(r -> r.nodePools().stream())
                .filter(p -> p.name().equals("sim-v6e-4x4-2"))
                .map(NodePoolReport::state))
                .contains(HealthState.UNHEALTHY));

        assertThat(post("/simulation/nodepools/sim-v6e-4x4-2/recover").statusCode()).isEqualTo(204);
        await().atMost(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(scheduler.lastReport().nodePools())
                .filteredOn(p -> p.name().equals("sim-v6e-4x4-2"))
                .singleElement()
                .satisfies(p -> assertThat(p.state()).isEqualTo(HealthState.HEALTHY)));
    }

    @Test
    void listsTheSimulatedJobSetsWithTheirWorkloadAndActivePods() throws Exception {
        cluster.createJobSet(Agent.json().readTree("""
                {"metadata": {"name": "listed", "namespace": "team-a",
                              "labels": {"%s": "true", "%s": "wl-listed"}},
                 "spec": {"replicatedJobs": [{"name": "main", "replicas": 1,
                          "template": {"spec": {"parallelism": 2, "template": {"spec": {}}}}}]}}
                """.formatted(AgentProtocol.MANAGED_LABEL, AgentProtocol.WORKLOAD_UID_LABEL)));

        HttpResponse<String> listed = get("/simulation/jobsets");

        assertThat(listed.statusCode()).isEqualTo(200);
        assertThat(Agent.json().readTree(listed.body()).valueStream()
                .filter(j -> j.get("name").asString().equals("listed")).toList())
                .singleElement().satisfies(j -> {
                    assertThat(j.get("namespace").asString()).isEqualTo("team-a");
                    assertThat(j.get("workloadUid").asString()).isEqualTo("wl-listed");
                    assertThat(j.get("suspended").asBoolean()).isFalse();
                    assertThat(j.get("activePods").asInt()).isEqualTo(2);
                });
    }

    @Test
    void theAdmissionWebhookIsServedInSimulatedModeToo() {
        ApiServerAdmission apiServer = new ApiServerAdmission(URI.create("https://localhost:" + webhook.port()),
                webhookCertificates.current().caBundle(Instant.now()));
        JsonNode jobSet = Agent.json().readTree("""
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                 "metadata": {"name": "tried", "namespace": "default", "labels": {"kueue.x-k8s.io/queue-name": "q"}},
                 "spec": {"replicatedJobs": []}}
                """);

        ApiServerAdmission.Answer answer = apiServer.review("/mutate-jobset-x-k8s-io-v1alpha2-jobset", "CREATE", jobSet,
                null, false);

        assertThat(answer.patch().toString()).isEqualTo("[{\"op\":\"add\",\"path\":\"/spec/suspend\",\"value\":true}]");
    }

    @Test
    void readinessWaitsForTheInformersAndMetricsTellReportsAndLeadership() throws Exception {
        await().atMost(Duration.ofSeconds(10)).until(() -> !scheduler.reports().isEmpty());

        HttpResponse<String> readiness = get("/actuator/health/readiness");
        String metrics = prometheus.scrape();

        assertThat(readiness.statusCode()).isEqualTo(200);
        assertThat(readiness.body()).contains("\"informers\"").contains("\"UP\"");
        assertThat(metrics).containsPattern("platform_agent_report_seconds_count\\{kind=\"FULL\",outcome=\"accepted\"} [1-9]");
        assertThat(metrics).containsPattern("platform_agent_leader [1-9]");
        assertThat(metrics).containsPattern("platform_agent_informers_synced 1");
    }

    @Test
    void faultInjectionAndManagementListenOnLoopbackWithHealthAloneExposed() throws Exception {
        InetAddress address = (InetAddress) ((TomcatWebServer) context.getWebServer()).getTomcat().getConnector()
                .getProperty("address");

        assertThat(address).as("only this host may fail a simulated pool").isEqualTo(InetAddress.getLoopbackAddress());
        assertThat(get("/actuator/health").statusCode()).isEqualTo(200);
        assertThat(get("/actuator/prometheus").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/info").statusCode()).isEqualTo(404);
        assertThat(get("/actuator/env").statusCode()).isEqualTo(404);
    }

    @Test
    void startsWithoutBeanValidationItHasNoUseFor() {
        // Spring MVC sets Bean Validation up whenever its API is on the class path and, with no provider beside it,
        // logs "Failed to set up a Bean Validation provider" at every start: the agent validates nothing that way.
        assertThat(ClassUtils.isPresent("jakarta.validation.Validator", getClass().getClassLoader())).isFalse();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .header("Accept", "application/json, text/plain").GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<Void> post(String path) throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.discarding());
    }
}
