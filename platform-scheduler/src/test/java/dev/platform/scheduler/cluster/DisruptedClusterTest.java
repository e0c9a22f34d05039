package dev.platform.scheduler.cluster;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.SimulatedAgent;
import dev.platform.scheduler.testsupport.SimulatedClusterTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A FULL report that lacks most of a cluster's running JobSets (here: all four, the cluster came back empty) holds
 * their requeues: the cluster is marked disrupted, in its REST status, the console and a metric, and nothing is
 * requeued until a later FULL report lacks them too or an operator confirms.
 */
class DisruptedClusterTest extends SimulatedClusterTest {

    private static final List<String> JOBS = IntStream.rangeClosed(1, 4).mapToObj(i -> "long-" + i).toList();

    @Autowired
    MeterRegistry registry;

    @Test
    void aReportMissingMostJobSetsHoldsTheRequeuesUntilAnOperatorConfirms() {
        runFourJobs();
        double disruptionsBefore = disruptions();

        agent.close();
        agent = SimulatedAgent.start(port, api);
        cluster = agent.cluster();

        await().atMost(Duration.ofSeconds(20)).until(() -> !api.get("/api/v1/clusters/sim").json()
                .get("disruption").isNull());
        Response status = api.get("/api/v1/clusters/sim");
        assertThat(status.json().at("/disruption/missingJobSets").asInt()).isEqualTo(4);
        assertThat(status.json().at("/disruption/runningWorkloads").asInt()).isEqualTo(4);
        assertThat(status.json().at("/disruption/message").asString()).contains("lacked 4 of its 4")
                .contains("/api/v1/clusters/sim/disruption/confirm");
        assertThat(disruptions()).isEqualTo(disruptionsBefore + 1);
        assertThat(api.get("/nodepools").body()).contains("Disrupted: requeues held");
        // well past the missing-JobSet grace: without the hold every one of them was requeued at once
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8)).until(() ->
                JOBS.stream().noneMatch(job -> events(job).stream().anyMatch(e -> e.contains("JobSetMissing"))));

        assertThat(api.post("/api/v1/clusters/sim/disruption/confirm", "application/json", "").status())
                .isEqualTo(200);

        await().atMost(Duration.ofSeconds(20)).until(() ->
                JOBS.stream().allMatch(job -> events(job).contains("Requeued/JobSetMissing")));
        assertThat(api.get("/api/v1/clusters/sim").json().get("disruption").isNull()).isTrue();
        assertThat(api.post("/api/v1/clusters/sim/disruption/confirm", "application/json", "").status())
                .as("nothing is held any more").isEqualTo(409);
    }

    @Test
    void aLaterFullReportLackingThemTooConfirms() {
        runFourJobs();

        agent.close();
        agent = SimulatedAgent.start(port, api, Duration.ofSeconds(4));
        cluster = agent.cluster();

        await().atMost(Duration.ofSeconds(20)).until(() -> !api.get("/api/v1/clusters/sim").json()
                .get("disruption").isNull());
        await().atMost(Duration.ofSeconds(30)).until(() ->
                JOBS.stream().allMatch(job -> events(job).contains("Requeued/JobSetMissing")));
        assertThat(api.get("/api/v1/clusters/sim").json().get("disruption").isNull()).isTrue();
    }

    private void runFourJobs() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        for (String job : JOBS) {
            Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.onePodJobSet(job,
                    Map.of("kueue.x-k8s.io/queue-name", "lq"), Map.of("platform.dev/simulated-runtime", "1h"), "1"));
            assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> JOBS.stream().allMatch(job -> "Running".equals(
                api.get("/api/v1/namespaces/team-a/workloads/" + job).json().get("state").asString())));
        // a FULL report within the missing-JobSet grace of a START's acknowledgement tells nothing of it
        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.sql("""
                SELECT bool_and(acked_at < now() - interval '6 seconds') FROM agent_command""")
                .query(Boolean.class).single());
    }

    private double disruptions() {
        Counter counter = registry.find("platform.cluster.disruptions").tags("cluster", "sim").counter();
        return counter == null ? 0 : counter.count();
    }

    private List<String> events(String job) {
        return api.get("/api/v1/namespaces/team-a/workloads/" + job + "/events").json().get("items").valueStream()
                .map(e -> e.get("type").asString() + "/" + e.get("reason").asString()).toList();
    }
}
