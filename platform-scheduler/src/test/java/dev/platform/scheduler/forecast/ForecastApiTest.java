package dev.platform.scheduler.forecast;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** The forecast in the workload status and the visibility lists, computed by the leader from the real state. */
class ForecastApiTest extends PlatformApplicationTest {

    @Autowired
    ForecastService forecasts;

    @Test
    void aWaitingWorkloadIsExpectedWhenTheMaximumExecutionTimeOfWhatHoldsItsQuotaRunsOut() throws Exception {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        assertThat(submit(job("first", "4", "3600")).status()).isEqualTo(201);
        JsonNode first = await().atMost(Duration.ofSeconds(20)).until(() -> status("first"),
                w -> w.get("state").asString().equals("Admitted"));
        assertThat(submit(job("second", "4", null)).status()).isEqualTo(201);
        assertThat(api.postYaml("/api/v1/manifests", job("huge", "8", null).replace("metadata:",
                "metadata:\n  namespace: team-a")).status()).as("applied, a workload that never fits is kept").isEqualTo(200);

        forecasts.refresh().get(30, TimeUnit.SECONDS);

        Instant expected = Instant.parse(first.get("admittedAt").asString()).plus(Duration.ofHours(1));
        JsonNode second = status("second").get("forecast");
        assertThat(second.get("basis").asString()).isEqualTo("MaximumExecutionTime");
        assertThat(instant(second, "estimatedAdmissionAt")).isCloseTo(expected, within(1, ChronoUnit.SECONDS));
        assertThat(instant(second, "p10")).isEqualTo(instant(second, "estimatedAdmissionAt"));
        assertThat(instant(second, "p90")).isEqualTo(instant(second, "estimatedAdmissionAt"));
        assertThat(second.get("message").asString()).contains("after 1 workload in its cohort finish");
        assertThat(second.get("computedAt").isNull()).isFalse();
        assertThat(second.get("stale").asBoolean()).isFalse();

        JsonNode huge = status("huge").get("forecast");
        assertThat(huge.get("basis").asString()).isEqualTo("NeverFits");
        assertThat(huge.get("estimatedAdmissionAt").isNull()).isTrue();
        assertThat(huge.get("message").asString()).contains("maximum capacity 4:");

        assertThat(status("first").get("forecast").isNull()).as("an admitted workload has no forecast").isTrue();

        JsonNode byClusterQueue = api.get("/api/v1/clusterqueues/cq/pendingworkloads").json().get("items");
        JsonNode byLocalQueue = api.get("/api/v1/namespaces/team-a/localqueues/lq/pendingworkloads").json().get("items");
        assertThat(byClusterQueue.get(0).get("name").asString()).isEqualTo("second");
        assertThat(byClusterQueue.get(0).get("forecast")).isEqualTo(second);
        assertThat(byClusterQueue.get(1).at("/forecast/basis").asString()).isEqualTo("NeverFits");
        assertThat(byLocalQueue.get(0).get("forecast")).isEqualTo(second);
    }

    @Test
    void aNewLeaderLearnsRuntimesFromTheWorkloadsFinishedBeforeItAndFallsBackOnTheClusterQueuesHistory()
            throws Exception {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        for (String name : List.of("done-1", "done-2", "done-3")) {
            assertThat(submit(job(name, "1", null)).status()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.sql("SELECT count(*) FROM workload WHERE state = 'Admitted'")
                .query(Long.class).single() == 3);
        // Finished 20 minutes after admission, behind the scheduler's back: only a new leader's reading sees them.
        jdbc.sql("""
                UPDATE workload SET state = 'Finished', admitted_at = now() - interval '1 hour',
                       finished_at = now() - interval '40 minutes'
                WHERE name LIKE 'done-%'""").update();
        jdbc.sql("DELETE FROM workload_usage").update();
        loop.quiesced(() -> { }).join();

        assertThat(submit(job("running", "4", null)).status()).isEqualTo(201);
        JsonNode running = await().atMost(Duration.ofSeconds(20)).until(() -> status("running"),
                w -> w.get("state").asString().equals("Admitted"));
        assertThat(submit(job("next", "4", null)).status()).isEqualTo(201);
        forecasts.refresh().get(30, TimeUnit.SECONDS);

        JsonNode next = status("next").get("forecast");
        assertThat(next.get("basis").asString()).as("another shape: its ClusterQueue's history")
                .isEqualTo("ClusterQueueHistory");
        assertThat(instant(next, "estimatedAdmissionAt")).isCloseTo(
                Instant.parse(running.get("admittedAt").asString()).plus(Duration.ofMinutes(20)),
                within(1, ChronoUnit.SECONDS));
    }

    /** A held ClusterQueue's backlog is forecast without simulating it, and simulated again once it is released. */
    @Test
    void aWorkloadWaitingInAHeldClusterQueueIsNeverAdmittedAsThingsStandUntilTheQueueIsReleased() throws Exception {
        String held = Manifests.queue("cq", "4", "Never").replace("  preemption:", "  stopPolicy: Hold\n  preemption:");
        assertThat(api.postYaml("/api/v1/manifests", held).status()).isEqualTo(200);
        for (String name : List.of("waiting-1", "waiting-2")) {
            assertThat(submit(job(name, "4", "600")).status()).isEqualTo(201);
        }

        forecasts.refresh().get(30, TimeUnit.SECONDS);

        for (String name : List.of("waiting-1", "waiting-2")) {
            JsonNode forecast = status(name).get("forecast");
            assertThat(forecast.get("basis").asString()).isEqualTo("NeverFits");
            assertThat(forecast.get("estimatedAdmissionAt").isNull()).isTrue();
            assertThat(forecast.get("message").asString()).isEqualTo("never admitted as things stand: ClusterQueue cq"
                    + " is stopped");
        }

        assertThat(api.postYaml("/api/v1/manifests", held.replace("stopPolicy: Hold", "stopPolicy: None")).status())
                .isEqualTo(200);
        JsonNode first = await().atMost(Duration.ofSeconds(20)).until(() -> status("waiting-1"),
                w -> w.get("state").asString().equals("Admitted"));
        forecasts.refresh().get(30, TimeUnit.SECONDS);

        JsonNode second = status("waiting-2").get("forecast");
        assertThat(second.get("basis").asString()).isEqualTo("MaximumExecutionTime");
        assertThat(instant(second, "estimatedAdmissionAt")).isCloseTo(
                Instant.parse(first.get("admittedAt").asString()).plus(Duration.ofMinutes(10)),
                within(1, ChronoUnit.SECONDS));
    }

    private PlatformClient.Response submit(String yaml) {
        return api.postYaml("/api/v1/namespaces/team-a/workloads", yaml);
    }

    private JsonNode status(String name) {
        return api.get("/api/v1/namespaces/team-a/workloads/" + name).json();
    }

    private static Instant instant(JsonNode forecast, String field) {
        return Instant.parse(forecast.get(field).asString());
    }

    /** A Job in LocalQueue lq asking for {@code cpu}, with Kueue's maximum execution time label when given. */
    private static String job(String name, String cpu, String maxExecSeconds) {
        String limit = maxExecSeconds == null ? "" : ", kueue.x-k8s.io/max-exec-time-seconds: \"" + maxExecSeconds + "\"";
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: %s
                  labels: {kueue.x-k8s.io/queue-name: lq%s}
                spec:
                  template:
                    spec:
                      containers:
                      - name: main
                        image: busybox
                        resources: {requests: {cpu: "%s"}}
                """.formatted(name, limit, cpu);
    }
}
