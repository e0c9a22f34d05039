package dev.platform.scheduler.preemption;

import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.cluster.AgentCalls;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/**
 * Every preemption records the work its victim lost: its TPU requests times the time since its last checkpoint
 * ({@code platform.dev/last-checkpoint}, set by merge patch here, or reported by the workload's cluster) or its
 * admission, in the audit's JSON and CSV and in the counter {@code platform_preemption_lost_work_seconds_total}.
 * Every other eviction records it too: in the workload's timeline, the same counter (its reason the eviction's) and
 * the listing {@code GET /api/v1/lostwork}.
 */
class LostWorkRestTest extends PlatformApplicationTest {

    @BeforeEach
    void setUp() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "8", "LowerPriority").replace("cpu", "google.com/tpu"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
    }

    @Test
    void aPreemptionRecordsTheChipSecondsSinceTheVictimsLastCheckpoint() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("victim", "low"));
        Instant admittedAt = Instant.parse(awaitState("victim", "Admitted").get("admittedAt").asString());
        Instant checkpoint = admittedAt.plusMillis(1);
        assertThat(api.send("PATCH", "/api/v1/namespaces/team-a/workloads/victim", Map.of(),
                "application/merge-patch+json",
                "{\"metadata\": {\"annotations\": {\"platform.dev/last-checkpoint\": \"" + checkpoint + "\"}}}")
                .status()).isEqualTo(200);

        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("urgent", "high"));
        awaitState("urgent", "Admitted");

        JsonNode event = api.get("/api/v1/preemptions").json().get("items").get(0);
        Instant at = Instant.parse(event.get("at").asString());
        assertThat(Instant.parse(event.at("/lostWork/since").asString())).isEqualTo(checkpoint);
        double expected = 8 * Duration.between(checkpoint, at).toMillis() / 1000.0;
        assertThat(event.at("/lostWork/resourceSeconds/google.com~1tpu").asDouble()).isCloseTo(expected, within(0.01));
        assertThat(event.at("/lostWork/resourceSeconds").size()).isEqualTo(1);

        String csv = api.get("/api/v1/preemptions?format=csv").body();
        assertThat(csv.lines().findFirst().orElseThrow()).endsWith(",lost_work_since,lost_work_resource_seconds");
        assertThat(csv).contains("," + checkpoint + ",google.com/tpu=");

        awaitMetric("platform_preemption_lost_work_seconds_total\\{cluster_queue=\"cq\",reason=\"InClusterQueue\"}"
                + " [0-9.E]+");
    }

    @Test
    void aCheckpointTheClusterReportsMovesTheWorkloadsForwardOnlyAndALaterPreemptionCountsFromIt() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("victim", "low"));
        JsonNode victim = awaitState("victim", "Admitted");
        Instant admittedAt = Instant.parse(victim.get("admittedAt").asString());
        String uid = victim.get("uid").asString();
        AgentCalls agent = new AgentCalls(port);
        assertThat(agent.report("prod-1", AgentCalls.full("prod-1", "agent-1", 1, List.of(), List.of())).status())
                .isEqualTo(200);
        Instant checkpoint = admittedAt.plusMillis(1);

        assertThat(agent.report("prod-1", AgentCalls.delta("prod-1", "agent-1", 2, List.of(), List.of(),
                List.of(reported(uid, checkpoint)))).status()).isEqualTo(200);
        assertThat(storedCheckpoint("victim")).isEqualTo(checkpoint.toString());

        // the JobSet still carries an older time (its submission's, say): the later one stays
        assertThat(agent.report("prod-1", AgentCalls.delta("prod-1", "agent-1", 3, List.of(), List.of(),
                List.of(reported(uid, admittedAt.minusSeconds(3600))))).status()).isEqualTo(200);
        assertThat(storedCheckpoint("victim")).isEqualTo(checkpoint.toString());

        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("urgent", "high"));
        awaitState("urgent", "Admitted");

        JsonNode event = api.get("/api/v1/preemptions").json().get("items").get(0);
        assertThat(Instant.parse(event.at("/lostWork/since").asString())).isEqualTo(checkpoint);
    }

    @Test
    void aDeactivatedWorkloadsLostWorkIsInItsTimelineAndTheEvictionCounter() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("stopped", "low"));
        awaitState("stopped", "Admitted");

        assertThat(api.postJson("/api/v1/namespaces/team-a/workloads/stopped/stop", "").status()).isEqualTo(200);

        JsonNode lostWork = awaitLostWork("stopped");
        assertThat(lostWork.get("reason").asString()).isEqualTo("Deactivated");
        assertThat(lostWork.get("message").asString()).startsWith("Lost google.com/tpu ")
                .contains(" chip-hours since ");
        assertThat(api.get("/api/v1/preemptions").json().get("items").size()).as("no preemption").isZero();
        awaitMetric("platform_preemption_lost_work_seconds_total\\{cluster_queue=\"cq\",reason=\"Deactivated\"}"
                + " [0-9.E]+");
    }

    @Test
    void aDrainedClusterQueueRecordsTheLostWorkOfTheWorkloadsItEvicts() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("drained", "low"));
        awaitState("drained", "Admitted");

        assertThat(api.postJson("/api/v1/clusterqueues/cq/stop?drain=true", "").status()).isEqualTo(200);

        assertThat(awaitLostWork("drained").get("reason").asString()).isEqualTo("ClusterQueueStopped");
        assertThat(jdbc.sql("SELECT eviction || '/' || reason FROM lost_work").query(String.class).list())
                .containsExactly("ClusterQueueStopped/ClusterQueueStopped");
        awaitMetric("platform_preemption_lost_work_seconds_total\\{cluster_queue=\"cq\",reason=\"ClusterQueueStopped\"}"
                + " [0-9.E]+");
    }

    @Test
    void theListingHasEveryEvictionsLostWorkNewestFirstPagedFilteredAndAsCsv() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("first", "low"));
        awaitState("first", "Admitted");
        assertThat(api.postJson("/api/v1/namespaces/team-a/workloads/first/stop", "").status()).isEqualTo(200);
        awaitLostWork("first");
        api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("second", "low"));
        awaitState("second", "Admitted");
        assertThat(api.postJson("/api/v1/clusterqueues/cq/stop?drain=true", "").status()).isEqualTo(200);
        awaitLostWork("second");

        JsonNode all = api.get("/api/v1/lostwork").json();
        assertThat(all.get("items").valueStream().map(e -> e.get("name").asString() + "/" + e.get("eviction").asString()
                + "/" + e.get("reason").asString() + "/" + e.get("clusterQueue").asString()).toList())
                .containsExactly("second/ClusterQueueStopped/ClusterQueueStopped/cq", "first/Deactivated/Deactivated/cq");
        assertThat(all.at("/items/0/lostWork/resourceSeconds/google.com~1tpu").asDouble()).isPositive();

        JsonNode firstPage = api.get("/api/v1/lostwork?limit=1").json();
        assertThat(firstPage.at("/items/0/name").asString()).isEqualTo("second");
        JsonNode secondPage = api.get("/api/v1/lostwork?limit=1&cursor=" + firstPage.get("next").asString()).json();
        assertThat(secondPage.at("/items/0/name").asString()).isEqualTo("first");
        assertThat(secondPage.get("next").isNull()).isTrue();

        assertThat(api.get("/api/v1/lostwork?reason=Deactivated&namespace=team-a").json().get("items")
                .valueStream().map(e -> e.get("name").asString()).toList()).containsExactly("first");
        assertThat(api.get("/api/v1/lostwork?clusterQueue=other").json().get("items").isEmpty()).isTrue();
        String csv = api.get("/api/v1/lostwork", "text/csv").body();
        assertThat(csv.lines().toList()).hasSize(3).first().isEqualTo(
                "id,at,eviction,reason,namespace,name,uid,cluster_queue,lost_work_since,lost_work_resource_seconds");
        assertThat(csv.lines().skip(1).toList()).allSatisfy(line -> assertThat(line).contains(",cq,")
                .containsPattern(",google.com/tpu=[0-9.E]+$"));
        assertThat(api.get("/api/v1/lostwork?reason=Sometimes").status()).isEqualTo(400);
    }

    /** The counters count an eviction once its transaction commits, just after the API shows the eviction. */
    private void awaitMetric(String pattern) {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(
                api.get("/actuator/prometheus", "text/plain").body()).containsPattern(pattern));
    }

    private static WorkloadStatusReport reported(String uid, Instant lastCheckpoint) {
        return new WorkloadStatusReport(uid, "team-a", "victim", WorkloadPhase.PENDING, 1, 0, 0, 0, List.of(),
                List.of(), 0, lastCheckpoint);
    }

    /** The stored annotation, once its column (what orders victims by least lost work) is checked to agree. */
    private String storedCheckpoint(String name) {
        Map.Entry<String, Instant> stored = jdbc.sql("""
                        SELECT manifest -> 'metadata' -> 'annotations' ->> 'platform.dev/last-checkpoint', last_checkpoint
                        FROM workload WHERE name = ?""").param(name)
                .query((rs, i) -> Map.entry(rs.getString(1), rs.getTimestamp(2).toInstant())).single();
        assertThat(stored.getValue()).isEqualTo(Instant.parse(stored.getKey()));
        return stored.getKey();
    }

    /** The LostWork entry of the workload's timeline, once there. */
    private JsonNode awaitLostWork(String name) {
        return await().atMost(Duration.ofSeconds(20)).until(() -> api.get("/api/v1/namespaces/team-a/workloads/"
                        + name + "/events").json().get("items").valueStream()
                .filter(e -> "LostWork".equals(e.get("type").asString())).findFirst(), Optional::isPresent).get();
    }

    @Test
    void aLastCheckpointThatIsNoTimeIsRefusedAtItsPath() {
        var response = api.postYaml("/api/v1/namespaces/team-a/workloads", tpuJob("odd", "low")
                .replace("  labels:", "  annotations: {platform.dev/last-checkpoint: yesterday}\n  labels:"));

        assertThat(response.status()).isEqualTo(422);
        assertThat(response.body()).contains("metadata.annotations.platform.dev/last-checkpoint");
    }

    /** A Job of one pod asking for all 8 TPU chips of the queue. */
    private static String tpuJob(String name, String priorityClass) {
        return Manifests.job(name, "lq", "8", priorityClass)
                .replace("resources: {requests: {cpu: \"8\"}}",
                        "resources: {requests: {google.com/tpu: \"8\"}, limits: {google.com/tpu: \"8\"}}");
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
