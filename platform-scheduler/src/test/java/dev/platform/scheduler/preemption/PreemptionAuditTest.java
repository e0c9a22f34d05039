package dev.platform.scheduler.preemption;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A preemption decided by the loop lands in the audit with Kueue's reason and message, the victim
 * is requeued at its place, and the audit filters, pages and exports CSV.
 */
class PreemptionAuditTest extends PlatformApplicationTest {

    @BeforeEach
    void setUp() {
        api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
    }

    @Test
    void higherPriorityPreemptsWithinTheClusterQueueAndTheAuditSaysWhy() throws Exception {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("victim", "lq", "3", "low"));
        awaitState("victim", "Admitted");

        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("urgent", "lq", "3", "high"));

        awaitState("urgent", "Admitted");
        JsonNode victim = awaitState("victim", "Pending");
        assertThat(victim.get("conditions").valueStream().map(c -> c.get("type").asString() + "/" + c.get("reason").asString()))
                .contains("Evicted/Preempted", "Preempted/InClusterQueue", "Requeued/Preempted");
        assertThat(victim.get("positionInClusterQueue").asInt()).isZero();

        JsonNode events = api.get("/api/v1/preemptions").json().get("items");
        assertThat(events).hasSize(1);
        JsonNode event = events.get(0);
        assertThat(event.get("reason").asString()).isEqualTo("InClusterQueue");
        assertThat(event.at("/preemptor/name").asString()).isEqualTo("urgent");
        assertThat(event.at("/preemptor/priority").asInt()).isEqualTo(100);
        assertThat(event.at("/victim/name").asString()).isEqualTo("victim");
        assertThat(event.at("/victim/clusterQueue").asString()).isEqualTo("cq");
        String urgentUid = api.get("/api/v1/namespaces/team-a/workloads/urgent").json().get("uid").asString();
        assertThat(event.get("message").asString()).isEqualTo("Preempted to accommodate a workload (UID: " + urgentUid
                + ") due to prioritization in the ClusterQueue; preemptor path: /cq; preemptee path: /cq");

        assertThat(api.get("/api/v1/preemptions?reason=InCohortReclamation").json().get("items")).isEmpty();
        assertThat(api.get("/api/v1/preemptions?clusterQueue=cq&namespace=team-a").json().get("items")).hasSize(1);
        assertThat(api.get("/api/v1/preemptions?until=" + Instant.now().minusSeconds(3600)).json().get("items")).isEmpty();
        assertThat(api.get("/api/v1/preemptions?reason=Whatever").status()).isEqualTo(400);

        Response csv = api.get("/api/v1/preemptions?clusterQueue=cq", "text/csv");
        assertThat(csv.contentType()).startsWith("text/csv");
        List<String> lines = csv.body().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("id,at,reason,message,");
        assertThat(lines.get(1)).contains(",InClusterQueue,Preempted to accommodate a workload (UID: ").contains(",urgent,")
                .contains(",victim,");

        Response linked = api.get("/api/v1/preemptions?clusterQueue=cq&format=csv", "text/html");
        assertThat(linked.contentType()).as("a browser link cannot set Accept; format=csv selects CSV").startsWith("text/csv");
        assertThat(linked.body()).isEqualTo(csv.body());
        assertThat(api.get("/api/v1/preemptions?clusterQueue=other&format=csv", "text/html").body().lines()).hasSize(1);
    }

    @Test
    void auditPagesWithAKeysetCursorOverManyEvents() {
        jdbc.sql("""
                INSERT INTO preemption_event (at, reason, message, preemptor_uid, preemptor_namespace, preemptor_name,
                    preemptor_cluster_queue, preemptor_priority, victim_uid, victim_namespace, victim_name,
                    victim_cluster_queue, victim_priority)
                SELECT now() - (i || ' seconds')::interval, 'InClusterQueue', 'm', gen_random_uuid(), 'team-a', 'p' || i,
                       'cq', 2, gen_random_uuid(), 'team-a', 'v' || i, 'cq', 1
                FROM generate_series(1, 250) AS i""").update();

        int seen = 0;
        String cursor = null;
        String previousName = null;
        do {
            JsonNode page = api.get("/api/v1/preemptions?limit=100" + (cursor == null ? "" : "&cursor=" + cursor)).json();
            for (JsonNode item : page.get("items")) {
                seen++;
                String name = item.at("/preemptor/name").asString();
                if (previousName != null) {
                    assertThat(Integer.parseInt(name.substring(1))).isGreaterThan(Integer.parseInt(previousName.substring(1)));
                }
                previousName = name;
            }
            cursor = page.get("next").isNull() ? null : page.get("next").asString();
        } while (cursor != null);
        assertThat(seen).isEqualTo(250);
    }

    @Test
    void theCsvExportDefusesSpreadsheetFormulas() {
        jdbc.sql("""
                INSERT INTO preemption_event (at, reason, message, preemptor_uid, preemptor_namespace, preemptor_name,
                    preemptor_cluster_queue, preemptor_priority, victim_uid, victim_namespace, victim_name,
                    victim_cluster_queue, victim_priority)
                VALUES (now(), 'InClusterQueue', '=HYPERLINK("http://evil","x")', gen_random_uuid(), 'team-a', 'p',
                        'cq', -5, gen_random_uuid(), 'team-a', 'v', 'cq', 1)""").update();

        String row = api.get("/api/v1/preemptions?format=csv", "text/csv").body().lines().toList().get(1);

        assertThat(row).contains(",\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\",")
                .as("a priority is a number, not text").contains(",cq,-5,");
        // names are Kubernetes names in the schema; the rule holds for every text cell all the same
        assertThat(List.of("+cmd", "-2+3", "@SUM(A1)", "\tteam", "\rx", "", "team-a", "a=b"))
                .map(PreemptionController::csv)
                .containsExactly("'+cmd", "'-2+3", "'@SUM(A1)", "'\tteam", "\"'\rx\"", "", "team-a", "a=b");
    }

    private JsonNode awaitState(String name, String state) {
        return await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json(),
                w -> state.equals(w.get("state").asString()));
    }
}
