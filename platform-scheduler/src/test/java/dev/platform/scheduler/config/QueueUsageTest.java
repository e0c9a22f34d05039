package dev.platform.scheduler.config;

import dev.platform.api.manifest.ConfigManifest;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.decode.KubernetesManifestParser;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.scheduler.workload.WorkloadTransitions.Admitting;
import dev.platform.scheduler.workload.WorkloadTransitions.QuotaUse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.admission;
import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ClusterQueue usage from the quota rows of admitted workloads: what a queue borrows from its cohort, what
 * the others lend in proportion to what they can lend (within their lending limit), the workload counts, and
 * the samples of the usage chart with their retention.
 */
@StoreSliceTest
class QueueUsageTest {

    private static final ManifestParser PARSER = new KubernetesManifestParser(ManifestLimits.DEFAULT);
    private static final Instant NOW = StoreSliceTest.NOW;

    @Autowired
    ConfigStore config;

    @Autowired
    QueueUsage usage;

    @Autowired
    QueueUsageHistory history;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    JdbcClient jdbc;

    private static String clusterQueue(String name, String nominal, String lendingLimit) {
        String limit = lendingLimit == null ? "" : ", lendingLimit: \"" + lendingLimit + "\"";
        return """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  cohort: pool
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: default, resources: [{name: cpu, nominalQuota: "%s"%s}]}]
                ---
                """.formatted(name, nominal, limit);
    }

    @BeforeEach
    void aCohortOfThreeQueues() {
        String yaml = """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: default}
                ---
                """ + clusterQueue("borrower", "4", null) + clusterQueue("lender", "4", null)
                + clusterQueue("limited", "4", "1");
        PARSER.parse(yaml.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML)
                .forEach(d -> config.insert((ConfigManifest) d.manifest()));
    }

    private void admitted(String clusterQueue, String cpu) {
        UUID uid = submit(transitions, "team-a", clusterQueue + "-" + cpu, "lq", clusterQueue, 0, NOW);
        long version = jdbc.sql("SELECT version FROM workload WHERE uid = ?").param(uid).query(Long.class).single();
        assertThat(transitions.admit(List.of(new Admitting(uid, version, clusterQueue, admission(clusterQueue), null,
                List.of(new QuotaUse("default", "cpu", new BigDecimal(cpu))))), NOW, 1)).containsKey(uid);
    }

    @Test
    void whatOneQueueBorrowsTheOthersLendInProportionToWhatTheyMayLend() {
        admitted("borrower", "6");
        admitted("limited", "1");
        submit(transitions, "team-a", "waiting", "lq", "borrower", 0, NOW);

        Map<String, QueueUsage.Usage> of = usage.of(List.of("borrower", "lender", "limited"));

        assertThat(of.get("borrower").resources()).singleElement().satisfies(line -> {
            assertThat(line.used()).isEqualTo("6");
            assertThat(line.borrowed()).isEqualTo("2");
            assertThat(line.lent()).isEqualTo("0");
        });
        // lendable: lender 4, limited min(4 - 1, 1) = 1; the 2 borrowed split 4:1
        assertThat(of.get("lender").resources().get(0).lent()).isEqualTo("1600m");
        assertThat(of.get("limited").resources().get(0).lent()).isEqualTo("400m");
        assertThat(of.get("limited").resources().get(0).lendingLimit()).isEqualTo("1");
        assertThat(of.get("borrower").pendingWorkloads()).isEqualTo(1);
        assertThat(of.get("borrower").admittedWorkloads()).isEqualTo(1);
        assertThat(of.get("lender").admittedWorkloads()).isZero();
    }

    @Test
    void aQueueAskedForAloneStillCountsItsCohortsBorrowing() {
        admitted("borrower", "6");

        assertThat(usage.of(List.of("lender"))).containsOnlyKeys("lender");
        assertThat(usage.of(List.of("lender")).get("lender").resources().get(0).lent()).isEqualTo("1600m");
        assertThat(usage.of(List.of("nowhere")).get("nowhere")).isEqualTo(new QueueUsage.Usage(List.of(), 0, 0));
        assertThat(usage.of(List.of())).isEmpty();
    }

    @Test
    void samplesRecordEveryQueueAndForgetWhatIsPastTheRetention() {
        admitted("borrower", "6");
        jdbc.sql("""
                INSERT INTO cluster_queue_usage_sample (cluster_queue, at, flavor, resource, used, nominal_quota)
                VALUES ('borrower', ?, 'default', 'cpu', 1, 4), ('borrower', ?, 'default', 'cpu', 2, 4)""")
                .params(Timestamp.from(NOW.minus(Duration.ofDays(8))), Timestamp.from(NOW.minus(Duration.ofDays(6))))
                .update();

        history.sample();
        history.sample();

        assertThat(history.since(List.of("borrower", "lender"), NOW.minus(Duration.ofDays(30))))
                .extracting(s -> s.clusterQueue() + "@" + s.at() + "=" + s.used().stripTrailingZeros().toPlainString())
                .containsExactly("borrower@" + NOW.minus(Duration.ofDays(6)) + "=2", "borrower@" + NOW + "=6",
                        "lender@" + NOW + "=0");
        assertThat(history.since(List.of("borrower"), NOW)).hasSize(1);
        assertThat(history.since(List.of(), NOW)).isEmpty();
    }
}
