package dev.platform.scheduler.scheduling;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PrometheusScrape;
import dev.platform.scheduler.testsupport.PrometheusScrape.Sample;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Kueue's metrics on {@code /actuator/prometheus}, fed by real decisions, compared with the list
 * taken from Kueue's {@code pkg/metrics} (test resource {@code metrics/kueue-metrics-v0.19.2.tsv}):
 * every {@code kueue_*} family we export exists in Kueue with the same label names, histogram
 * buckets and label values.
 */
class SchedulingMetricsTest extends PlatformApplicationTest {

    /** What a Kueue dashboard needs first; each must be exported once the scenario below ran. */
    private static final List<String> REQUIRED = List.of("kueue_pending_workloads", "kueue_admitted_workloads_total",
            "kueue_quota_reserved_workloads_total", "kueue_evicted_workloads_total", "kueue_preempted_workloads_total",
            "kueue_admission_wait_time_seconds", "kueue_quota_reserved_wait_time_seconds", "kueue_admission_attempts_total",
            "kueue_admission_attempt_duration_seconds", "kueue_cluster_queue_resource_usage",
            "kueue_cluster_queue_resource_reservation", "kueue_cluster_queue_nominal_quota",
            "kueue_cluster_queue_status", "kueue_admitted_active_workloads", "kueue_reserving_active_workloads");

    @Autowired
    SchedulingMetrics metrics;

    @BeforeEach
    void setUp() {
        api.postYaml("/api/v1/manifests", Manifests.queue("metrics-cq", "2", "LowerPriority"));
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("low", 10) + "---\n" + Manifests.priorityClass("high", 100));
    }

    @Test
    void admissionsPreemptionsPendingAndUsageAreExportedWithKueuesNamesLabelsAndBuckets() throws IOException {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("a", "lq", "2", "low"));
        awaitState("a", "Admitted");
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("b", "lq", "2", "high"));
        awaitState("b", "Admitted");
        api.postYaml("/api/v1/manifests", Manifests.job("c", "lq", "3", "low").replace("metadata:",
                "metadata:\n  namespace: team-a"));
        await().atMost(Duration.ofSeconds(20)).until(() -> api.get("/api/v1/namespaces/team-a/workloads/c").json()
                .path("pendingReason").path("code").asString().equals("ExceedsMaxQuota"));

        metrics.refreshGauges();
        PrometheusScrape scrape = PrometheusScrape.parse(api.get("/actuator/prometheus", "text/plain").body());
        KueueMetrics kueue = KueueMetrics.load();

        assertThat(scrape.families()).containsAll(REQUIRED);
        for (String family : scrape.families().stream().filter(f -> f.startsWith("kueue_")).toList()) {
            KueueMetrics.Metric metric = kueue.metric(family);
            assertThat(metric).as("%s is a Kueue metric", family).isNotNull();
            for (Sample sample : scrape.family(family)) {
                Set<String> labels = new HashSet<>(sample.labels().keySet());
                labels.remove("le");
                assertThat(labels).as("labels of %s", sample.name()).isEqualTo(Set.copyOf(metric.labels()));
                sample.labels().forEach((label, value) -> assertThat(kueue.allows(metric.name(), label, value))
                        .as("%s{%s=\"%s\"} is a value Kueue documents", metric.name(), label, value).isTrue());
            }
            if (metric.type().equals("histogram")) {
                Set<Double> buckets = scrape.family(family).stream().filter(s -> s.name().endsWith("_bucket"))
                        .map(s -> s.labels().get("le")).filter(le -> !le.equals("+Inf")).map(Double::valueOf)
                        .collect(Collectors.toCollection(TreeSet::new));
                assertThat(buckets).as("buckets of %s", family).isEqualTo(new TreeSet<>(metric.buckets()));
            }
        }
        assertThat(value(scrape, "kueue_admitted_workloads_total", Map.of("cluster_queue", "metrics-cq", "priority_class", "high")))
                .isEqualTo(1);
        assertThat(value(scrape, "kueue_preempted_workloads_total",
                Map.of("preempting_cluster_queue", "metrics-cq", "reason", "InClusterQueue"))).isEqualTo(1);
        assertThat(value(scrape, "kueue_evicted_workloads_total",
                Map.of("cluster_queue", "metrics-cq", "reason", "Preempted", "priority_class", "low"))).isEqualTo(1);
        assertThat(value(scrape, "kueue_pending_workloads", Map.of("cluster_queue", "metrics-cq", "status", "active"))
                + value(scrape, "kueue_pending_workloads", Map.of("cluster_queue", "metrics-cq", "status", "inadmissible")))
                .isEqualTo(2);
        assertThat(value(scrape, "kueue_cluster_queue_resource_usage",
                Map.of("cohort", "", "cluster_queue", "metrics-cq", "flavor", "default", "resource", "cpu"))).isEqualTo(2);
        assertThat(value(scrape, "kueue_cluster_queue_nominal_quota",
                Map.of("cluster_queue", "metrics-cq", "flavor", "default", "resource", "cpu"))).isEqualTo(2);
        assertThat(value(scrape, "kueue_cluster_queue_status", Map.of("cluster_queue", "metrics-cq", "status", "active")))
                .isEqualTo(1);
        assertThat(scrape.family("kueue_admission_wait_time_seconds")).anySatisfy(
                s -> assertThat(s.labels()).containsEntry("replica_role", "leader").containsEntry("le", "40960.0"));
    }

    private static double value(PrometheusScrape scrape, String name, Map<String, String> labels) {
        return scrape.samples().stream().filter(s -> s.name().equals(name))
                .filter(s -> s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value).sum();
    }

    private void awaitState(String name, String state) {
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json().get("state").asString(), state::equals);
    }

    /** The list taken from Kueue's source, with the label values its Help texts document. */
    record KueueMetrics(Map<String, Metric> metrics, Map<String, Set<String>> values) {

        record Metric(String name, String type, List<String> labels, List<Double> buckets) {
        }

        static KueueMetrics load() throws IOException {
            Map<String, Metric> metrics = new LinkedHashMap<>();
            Map<String, Set<String>> values = new HashMap<>();
            try (InputStream in = SchedulingMetricsTest.class.getResourceAsStream("/metrics/kueue-metrics-v0.19.2.tsv")) {
                for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                    if (line.isBlank() || line.startsWith("#")) {
                        continue;
                    }
                    String[] f = line.split("\t", -1);
                    if (f[0].equals("values") || f[0].equals("extension")) {
                        values.computeIfAbsent(f[1] + " " + f[2], k -> new HashSet<>()).addAll(Arrays.asList(f[3].split(",", -1)));
                    } else {
                        metrics.put(f[0], new Metric(f[0], f[1], List.of(f[2].split(",")),
                                f[3].isEmpty() ? List.of() : Arrays.stream(f[3].split(",")).map(Double::valueOf).toList()));
                    }
                }
            }
            return new KueueMetrics(metrics, values);
        }

        Metric metric(String family) {
            return metrics.get(family);
        }

        /** A label value is Kueue's, or any for labels whose values Kueue does not enumerate (names of objects). */
        boolean allows(String metric, String label, String value) {
            if (label.equals("le")) {
                return true;
            }
            Set<String> allowed = values.getOrDefault(metric + " " + label, values.get("* " + label));
            return allowed == null || allowed.contains(value);
        }
    }
}
