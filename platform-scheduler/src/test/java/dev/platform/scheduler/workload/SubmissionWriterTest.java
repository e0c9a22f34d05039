package dev.platform.scheduler.workload;

import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Group commit: the submissions of one group are one transaction under the writers' lock, in the order they
 * came, each answered after the commit; one refused leaves nothing and fails none of the others.
 */
class SubmissionWriterTest extends PlatformApplicationTest {

    @Autowired
    SubmissionWriter writer;
    @Autowired
    ManifestParser parser;
    @Autowired
    MeterRegistry meters;

    @BeforeEach
    void aQueueCoveringCpuAndAWorkloadNamedTaken() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        // Held: nothing is admitted, so each row keeps the change sequence of its submission.
        assertThat(api.post("/api/v1/clusterqueues/cq/stop", "application/json", "").status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("taken", "lq", "1", null))
                .status()).isEqualTo(201);
    }

    @Test
    void aGroupCommitsInOneTransactionInItsOrderAndARefusedSubmissionLeavesNothing() {
        SubmissionWriter.Waiting first = waiting(Manifests.job("first", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting taken = waiting(Manifests.job("taken", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting uncovered = waiting("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: uncovered, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  template:
                    spec:
                      containers: [{name: main, image: busybox, resources: {requests: {nvidia.com/gpu: "1"}}}]
                """, null, "alice");
        SubmissionWriter.Waiting keyed = waiting(Manifests.job("keyed", "lq", "1", null), "key-1", "alice");
        SubmissionWriter.Waiting retried = waiting(Manifests.job("keyed", "lq", "1", null), "key-1", "alice");
        SubmissionWriter.Waiting last = waiting(Manifests.job("last", "lq", "1", null), null, "bob");

        long countBefore = groupSizes().count();
        double totalBefore = groupSizes().totalAmount();
        writer.write(List.of(first, taken, uncovered, keyed, retried, last));

        assertThatThrownBy(taken.answer()::join).isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.Conflict));
        assertThatThrownBy(uncovered.answer()::join).cause()
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.Invalid));
        assertThat(keyed.answer().join().created()).isTrue();
        assertThat(retried.answer().join().created()).as("the retry in the same group").isFalse();
        assertThat(retried.answer().join().workload().uid()).isEqualTo(keyed.answer().join().workload().uid());

        assertThat(jdbc.sql("SELECT name FROM workload WHERE name <> 'taken' ORDER BY change_seq")
                .query(String.class).list()).as("the feed's order is the group's").containsExactly("first", "keyed", "last");
        assertThat(groupSizes().count() - countBefore).as("one commit").isOne();
        assertThat(groupSizes().totalAmount() - totalBefore).isEqualTo(6);
        assertThat(jdbc.sql("SELECT count(*) FROM workload WHERE name IN ('taken', 'uncovered')").query(Long.class)
                .single()).isOne();
        assertThat(jdbc.sql("SELECT count(*) FROM workload_event e JOIN workload w ON w.uid = e.workload_uid"
                + " WHERE w.name = 'taken' AND e.message = 'Waiting for the scheduler'").query(Long.class).single())
                .as("the refused duplicate added no submission event").isOne();
        assertThat(first.answer().join().workload().name()).isEqualTo("first");
        assertThat(last.answer().join().workload().name()).isEqualTo("last");
        assertThat(first.answer().join().workload().submittedBy()).as("each submission keeps its submitter")
                .isEqualTo("alice");
        assertThat(last.answer().join().workload().submittedBy()).isEqualTo("bob");
    }

    @Test
    void aRequestIsAnsweredAsItsOwnTransactionWouldBe() {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("taken", "lq", "1", null))
                .status()).isEqualTo(409);
        assertThat(writer.submit(parser.parseWorkload(Manifests.job("alone", "lq", "1", null)
                .getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML, "team-a", FieldValidation.Strict), null, "alice").created()).isTrue();
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/alone").status()).isEqualTo(200);
    }

    private DistributionSummary groupSizes() {
        return meters.get("platform.submission.group.size").summary();
    }

    private SubmissionWriter.Waiting waiting(String yaml, String idempotencyKey, String submittedBy) {
        return new SubmissionWriter.Waiting(parser.parseWorkload(yaml.getBytes(StandardCharsets.UTF_8),
                ManifestParser.Format.YAML, "team-a", FieldValidation.Strict), idempotencyKey, submittedBy);
    }
}
