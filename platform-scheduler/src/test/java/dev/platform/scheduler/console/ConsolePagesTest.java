package dev.platform.scheduler.console;

import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.config.QueueUsageHistory;
import dev.platform.scheduler.forecast.ForecastService;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console over real data: the seed's Kueue example applied through REST, then every page read
 * as a browser would (HTML), the audit's CSV link followed, and the Cancel form posted.
 */
class ConsolePagesTest extends PlatformApplicationTest {

    @Autowired
    QueueUsageHistory usageHistory;

    @Autowired
    ForecastService forecasts;


    @Test
    void pagesShowTheSeedScenarioAndTheCancelFormFreesTheQuota() {
        Response applied = api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue-and-hotswap.yaml"));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        String highUid = awaitWorkload("high-jax-trillium", w -> "Admitted".equals(w.get("state").asString()))
                .get("uid").asString();
        String lowUid = awaitWorkload("low-jax-trillium",
                w -> "WaitingForQuota".equals(w.at("/pendingReason/code").asString())).get("uid").asString();
        recordPreemption(highUid, "high-jax-trillium", lowUid, "low-jax-trillium", "default");
        recordPreemption(UUID.randomUUID().toString(), "elsewhere-high", UUID.randomUUID().toString(), "elsewhere-low",
                "elsewhere");
        forecasts.refresh().join();

        assertThat(html("/")).contains("tpu-training-cq", "tpu-v6e-slice / google.com/tpu", "32 of 32",
                "width:100%", "default/low-jax-trillium", "elsewhere/elsewhere-low");

        assertThat(html("/queues")).contains("href=\"/queues/tpu-training-cq\"");
        assertThat(html("/queues/tpu-training-cq"))
                .containsPattern("<td class=\"num\">0</td>\\s*<td class=\"num\">0</td>\\s*<th scope=\"row\">"
                        + "<a href=\"/namespaces/default/workloads/low-jax-trillium\">")
                .contains("Waiting for quota to free up", "WaitingForQuota",
                        "insufficient unused quota for google.com/tpu in flavor tpu-v6e-slice, 32 more needed",
                        "1 pending, 1 admitted", "default/high-jax-trillium", "google.com/tpu in tpu-v6e-slice (32)",
                        "Expected to start", "No estimate: a runtime it waits for is unknown", "UnknownRuntime",
                        "runtime is unknown (no history, no maximum execution time): default/high-jax-trillium",
                        "just now</time>", "<td>low-priority-job (1000000)</td>", "<td>admin</td>");

        assertThat(html("/namespaces/default/workloads/low-jax-trillium"))
                .contains("0 in the ClusterQueue, 0 in the LocalQueue", "Waiting for quota to free up",
                        "No estimate: a runtime it waits for is unknown",
                        "kind: JobSet", "name: low-jax-trillium", "replicatedJobs:", "kueue.x-k8s.io/queue-name: default-queue",
                        "<th scope=\"row\">QuotaReserved</th>", "default/high-jax-trillium",
                        "action=\"/namespaces/default/workloads/low-jax-trillium/cancel\"",
                        "<dd>low-priority-job (1000000)</dd>", "<dt>Submitted by</dt><dd>admin</dd>");
        assertThat(html("/namespaces/default/workloads/high-jax-trillium"))
                .contains("<th scope=\"row\">Admitted</th><td>True</td>", "QuotaReserved=True",
                        "google.com/tpu in tpu-v6e-slice (32)", "default/low-jax-trillium", "apiVersion: jobset.x-k8s.io/v1alpha2");

        String audit = html("/preemptions?namespace=default&reason=InClusterQueue");
        assertThat(audit).contains("default/low-jax-trillium", "name=\"namespace\" value=\"default\"",
                        "href=\"/api/v1/preemptions?namespace=default&amp;reason=InClusterQueue&amp;format=csv\"")
                .doesNotContain("elsewhere-low");
        Response csv = api.get("/api/v1/preemptions?namespace=default&reason=InClusterQueue&format=csv", "text/html");
        assertThat(csv.status()).isEqualTo(200);
        assertThat(csv.contentType()).startsWith("text/csv");
        List<String> lines = csv.body().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("id,at,reason,message,");
        assertThat(lines.get(1)).contains(",high-jax-trillium,", ",low-jax-trillium,", ",InClusterQueue,");

        usageHistory.sample();
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: platform.dev/v1
                kind: Team
                metadata: {name: ml}
                spec: {namespaces: [default], members: [{user: alice, role: TeamLead}]}
                """).status()).isEqualTo(200);
        assertThat(html("/teams?team=ml")).contains("Usage over the last day",
                "tpu-training-cq · tpu-v6e-slice / google.com/tpu", "<span>100% of 32</span> now");
        assertThat(html("/teams?team=ml")).contains("<th scope=\"row\">default/default-queue</th>", "32 of 32",
                "href=\"/namespaces/default/workloads/low-jax-trillium\"",
                "href=\"/namespaces/default/workloads/high-jax-trillium\"");
        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: v1
                kind: Namespace
                metadata: {name: default, labels: {team: research}}
                """).status()).isEqualTo(200);
        assertThat(html("/configuration")).contains("tpu-v6e-slice", "cloud.google.com/gke-tpu-accelerator=tpu-v6e-slice",
                "BestEffortFIFO", "<dt>reclaimWithinCohort</dt><dd>Never</dd>", "default-queue",
                "low-priority-job", "2000000", "<li>team=research</li>", "<li>alice (TeamLead)</li>");

        Response cancelled = api.post("/namespaces/default/workloads/high-jax-trillium/cancel",
                "application/x-www-form-urlencoded", "");
        assertThat(cancelled.status()).isEqualTo(302);
        awaitWorkload("low-jax-trillium", w -> "Admitted".equals(w.get("state").asString()));
        assertThat(html("/namespaces/default/workloads/high-jax-trillium"))
                .contains("Finished", "Cancelled by admin").doesNotContain("Cancel workload");
    }

    private void recordPreemption(String preemptorUid, String preemptor, String victimUid, String victim, String namespace) {
        jdbc.sql("""
                INSERT INTO preemption_event (at, reason, message, preemptor_uid, preemptor_namespace, preemptor_name,
                    preemptor_cluster_queue, preemptor_priority, victim_uid, victim_namespace, victim_name,
                    victim_cluster_queue, victim_priority)
                VALUES (now(), 'InClusterQueue', 'Preempted to accommodate a workload', ?::uuid, ?, ?, 'tpu-training-cq',
                        2000000, ?::uuid, ?, ?, 'tpu-training-cq', 1000000)""")
                .params(preemptorUid, namespace, preemptor, victimUid, namespace, victim).update();
    }

    private String html(String path) {
        Response page = api.get(path, "text/html");
        assertThat(page.status()).as(path + ": " + page.body()).isEqualTo(200);
        assertThat(page.contentType()).startsWith("text/html");
        return page.body();
    }

    private JsonNode awaitWorkload(String name, java.util.function.Predicate<JsonNode> condition) {
        return await().atMost(Duration.ofSeconds(20))
                .until(() -> api.get("/api/v1/namespaces/default/workloads/" + name).json(), condition);
    }
}
