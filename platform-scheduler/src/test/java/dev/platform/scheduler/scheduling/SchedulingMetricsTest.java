package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Kueue's metric names on {@code /actuator/prometheus}, fed by real decisions. */
class SchedulingMetricsTest extends PlatformApplicationTest {

    @Autowired
    SchedulingMetrics metrics;

    @BeforeEach
    void setUp() {
        api.postYaml("/api/v1/manifests", Manifests.queue("metrics-cq", "2", "LowerPriority"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
    }

    @Test
    void admissionsPreemptionsPendingAndUsageAreExported() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("a", "lq", "2", "low"));
        awaitState("a", "Admitted");
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("b", "lq", "2", "high"));
        awaitState("b", "Admitted");

        metrics.refreshGauges();
        String scrape = api.get("/actuator/prometheus", "text/plain").body();

        assertThat(scrape).containsPattern("kueue_admitted_workloads_total\\{cluster_queue=\"metrics-cq\"[^}]*} [2-9]");
        assertThat(scrape).containsPattern(
                "kueue_preempted_workloads_total\\{preempting_cluster_queue=\"metrics-cq\",reason=\"InClusterQueue\"[^}]*} 1");
        assertThat(scrape).containsPattern("kueue_evicted_workloads_total\\{cluster_queue=\"metrics-cq\",reason=\"Preempted\"[^}]*} 1");
        assertThat(scrape).contains("kueue_admission_wait_time_seconds_bucket");
        assertThat(scrape).containsPattern("kueue_pending_workloads\\{cluster_queue=\"metrics-cq\"[^}]*} 1");
        assertThat(scrape).containsPattern(
                "kueue_cluster_queue_resource_usage\\{cluster_queue=\"metrics-cq\",flavor=\"default\",resource=\"cpu\"[^}]*} 2");
    }

    private void awaitState(String name, String state) {
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json().get("state").asString(), state::equals);
    }
}
