package dev.platform.scheduler.workload;

import dev.platform.api.reason.PendingReason;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.scheduler.identity.AccessAuditEntry;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.workload.WorkloadService.Submitted;
import dev.platform.scheduler.workload.WorkloadService.WorkloadCancelled;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;

import java.util.List;

import static dev.platform.scheduler.testsupport.StoredWorkloads.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Submitting and cancelling: a retried submission with its Idempotency-Key gets the first one's workload and another
 * manifest under the key is refused, a second workload of the same name is a conflict, a request the ClusterQueue
 * does not cover or could never give is refused before any row is written, a missing LocalQueue is refused naming
 * the nearest one (applied, the workload waits saying why), a workload without a queue name goes to
 * the LocalQueue {@code default}, runs in priority-only mode where an Admin allowed it or is refused, and a cancel
 * is done once, audited and announced to the cluster it ran in.
 */
@StoreSliceTest
@RecordApplicationEvents
class WorkloadServiceTest {

    @Autowired
    WorkloadService service;

    @Autowired
    WorkloadStore store;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    ApplicationEvents events;

    @BeforeEach
    void aQueueCoveringCpu() {
        jdbc.sql("""
                INSERT INTO cluster_queue (name, queueing_strategy, stop_policy, spec)
                VALUES ('cq', 'BestEffortFIFO', 'None', '{}')""").update();
        jdbc.sql("""
                INSERT INTO cluster_queue_quota (cluster_queue, group_index, flavor_index, flavor, resource, nominal_quota)
                VALUES ('cq', 0, 0, 'default', 'cpu', 4)""").update();
        jdbc.sql("""
                INSERT INTO local_queue (namespace, name, cluster_queue, stop_policy, spec)
                VALUES ('team-a', 'lq', 'cq', 'None', '{}')""").update();
    }

    private static DecodedDocument document(String yaml) {
        return new DecodedDocument(0, workload("team-a", yaml), List.of());
    }

    private long rows() {
        return jdbc.sql("SELECT count(*) FROM workload").query(Long.class).single();
    }

    @Test
    void aRetryWithTheIdempotencyKeyGetsTheFirstWorkload() {
        Submitted first = service.submit(document(Manifests.job("train", "lq", "1", null)), "retry-1", "alice");
        Submitted retry = service.submit(document(Manifests.job("train", "lq", "1", null)), "retry-1", "alice");

        assertThat(first.created()).isTrue();
        assertThat(retry.created()).isFalse();
        assertThat(retry.workload().uid()).isEqualTo(first.workload().uid());
        assertThat(first.workload().clusterQueue()).isEqualTo("cq");
        assertThat(rows()).isEqualTo(1);
        assertThat(events.stream(WorkloadService.WorkloadsChanged.class)).hasSize(1);
    }

    @Test
    void aSecondWorkloadOfTheSameNameIsAConflictAndTheSameManifestAppliedAgainIsNoChange() {
        service.submit(document(Manifests.job("train", "lq", "1", null)), null, "alice");

        assertThatThrownBy(() -> service.submit(document(Manifests.job("train", "lq", "2", null)), "other-key", "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> assertThat(e.kind()).isEqualTo(Refusal.Kind.Conflict));
        assertThat(service.apply(document(Manifests.job("train", "lq", "1", null)), "alice").action()).isEqualTo("unchanged");
        assertThatThrownBy(() -> service.apply(document(Manifests.job("train", "lq", "2", null)), "alice"))
                .isInstanceOf(Refusal.class).hasMessageContaining("cannot be changed");
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void aRequestTheClusterQueueDoesNotCoverIsRefusedBeforeAnyRow() {
        String gpu = Manifests.job("gpu", "lq", "1", null).replace("{cpu: \"1\"}", "{nvidia.com/gpu: \"1\"}");

        assertThatThrownBy(() -> service.submit(document(gpu), null, "alice")).isInstanceOfSatisfying(Refusal.class, e -> {
            assertThat(e.kind()).isEqualTo(Refusal.Kind.Invalid);
            assertThat(e.getMessage()).contains("nvidia.com/gpu").contains("not covered by ClusterQueue cq");
        });
        assertThat(rows()).isZero();
    }

    @Test
    void aRetryWithTheIdempotencyKeyAndAnotherManifestIsRefusedNamingTheKey() {
        Submitted first = service.submit(document(Manifests.job("train", "lq", "1", null)), "retry-1", "alice");
        String reordered = Manifests.job("train", "lq", "1", null)
                .replace("  name: train\n  labels: {kueue.x-k8s.io/queue-name: lq}\n",
                        "  labels: {kueue.x-k8s.io/queue-name: lq}\n  name: train\n");
        assertThat(reordered).isNotEqualTo(Manifests.job("train", "lq", "1", null));
        assertThat(service.submit(document(reordered), "retry-1", "alice").workload().uid()).isEqualTo(first.workload().uid());

        assertThatThrownBy(() -> service.submit(document(Manifests.job("other", "lq", "1", null)), "retry-1", "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> {
                    assertThat(e.kind()).isEqualTo(Refusal.Kind.Invalid);
                    assertThat(e.getMessage()).contains("Idempotency-Key 'retry-1' was first used to submit Job team-a/train")
                            .contains(first.workload().uid().toString());
                    assertThat(e.errors()).singleElement().satisfies(error -> assertThat(error)
                            .extracting("path").isEqualTo("Idempotency-Key"));
                });
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void aMissingLocalQueueIsRefusedNamingTheNearestOneAndAppliedItWaitsSayingWhy() {
        assertThatThrownBy(() -> service.submit(document(Manifests.job("early", "lq2", "1", null)), null, "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("LocalQueue lq2 does not exist in namespace team-a; the nearest"
                            + " LocalQueue there is lq");
                    assertThat(e.errors()).singleElement().satisfies(error -> assertThat(error)
                            .extracting("path").isEqualTo("metadata.labels.kueue.x-k8s.io/queue-name"));
                });
        assertThat(rows()).isZero();

        WorkloadService.Applied applied = service.apply(document(Manifests.job("early", "later", "1", null)), "alice");
        WorkloadRow early = workloadNamed("early");

        assertThat(applied.action()).isEqualTo("created");
        assertThat(applied.warnings()).containsExactly("metadata.labels.kueue.x-k8s.io/queue-name: LocalQueue later does"
                + " not exist in namespace team-a; the nearest LocalQueue there is lq; the workload waits with"
                + " LocalQueueNotFound until the LocalQueue exists");
        assertThat(early.pendingReason()).isEqualTo(PendingReason.LocalQueueNotFound.name());
        assertThat(early.pendingMessage()).isEqualTo("LocalQueue later doesn't exist");
        assertThat(early.clusterQueue()).isNull();
    }

    @Test
    void aRequestLargerThanTheClusterQueueCouldEverGiveIsRefusedNamingResourceRequestAndMaximum() {
        assertThatThrownBy(() -> service.submit(document(Manifests.job("huge", "lq", "5", null)), null, "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("the Job asks for 5 cpu (1 pods x 5), more than"
                            + " ClusterQueue cq can ever give in one flavor: at most 4 (nominal quota plus what it may"
                            + " borrow)");
                    assertThat(e.errors()).singleElement().satisfies(error -> assertThat(error)
                            .extracting("path").isEqualTo("spec.template.spec.containers[0].resources.requests.cpu"));
                });
        assertThat(service.submit(document(Manifests.job("fits", "lq", "4", null)), null, "alice").created()).isTrue();
        assertThat(service.apply(document(Manifests.job("huge", "lq", "5", null)), "alice").warnings())
                .singleElement().asString().endsWith("at most 4 (nominal quota plus what it may borrow); the workload"
                        + " waits with ExceedsMaxQuota");
    }

    @Test
    void whatAClusterQueueCouldEverGiveCountsWhatItMayBorrowInItsCohort() {
        jdbc.sql("UPDATE cluster_queue SET cohort = 'org' WHERE name = 'cq'").update();
        jdbc.sql("UPDATE cluster_queue_quota SET borrowing_limit = 2 WHERE cluster_queue = 'cq'").update();
        jdbc.sql("""
                INSERT INTO cluster_queue (name, cohort, queueing_strategy, stop_policy, spec)
                VALUES ('lender', 'org', 'BestEffortFIFO', 'None', '{}')""").update();
        jdbc.sql("""
                INSERT INTO cluster_queue_quota (cluster_queue, group_index, flavor_index, flavor, resource, nominal_quota)
                VALUES ('lender', 0, 0, 'default', 'cpu', 10)""").update();

        assertThat(service.submit(document(Manifests.job("borrows", "lq", "6", null)), null, "alice").created()).isTrue();
        assertThatThrownBy(() -> service.submit(document(Manifests.job("beyond", "lq", "7", null)), null, "alice"))
                .isInstanceOf(Refusal.class).hasMessageContaining("at most 6");
    }

    private WorkloadRow workloadNamed(String name) {
        return store.find("team-a", name).orElseThrow();
    }

    @Test
    void aWorkloadWithoutQueueNameIsRefusedNamingTheNamespacesLocalQueuesAndHowToGetPriorityOnlyMode() {
        assertThatThrownBy(() -> service.submit(document(Manifests.job("orphan", null, "1", null)), null, "alice"))
                .isInstanceOfSatisfying(Refusal.class, e -> {
                    assertThat(e.kind()).isEqualTo(Refusal.Kind.Invalid);
                    assertThat(e.getMessage()).contains("names no LocalQueue")
                            .contains("LocalQueues of namespace team-a: lq.")
                            .contains("platform.dev/priority-only: allowed on Namespace team-a");
                    assertThat(e.errors()).singleElement().satisfies(error -> assertThat(error)
                            .extracting("path").isEqualTo("metadata.labels.kueue.x-k8s.io/queue-name"));
                });
        assertThat(rows()).isZero();
    }

    @Test
    void aWorkloadWithoutQueueNameGoesToTheNamespacesLocalQueueNamedDefault() {
        jdbc.sql("""
                INSERT INTO local_queue (namespace, name, cluster_queue, stop_policy, spec)
                VALUES ('team-a', 'default', 'cq', 'None', '{}')""").update();

        WorkloadRow orphan = service.submit(document(Manifests.job("orphan", null, "1", null)), null, "alice").workload();

        assertThat(orphan.queueName()).isEqualTo("default");
        assertThat(orphan.clusterQueue()).isEqualTo("cq");
    }

    @Test
    void aWorkloadWithoutQueueNameRunsInPriorityOnlyModeWhereAnAdminAllowedIt() {
        allowPriorityOnly("team-a");

        WorkloadRow orphan = service.submit(document(Manifests.job("orphan", null, "1", null)), null, "alice").workload();

        assertThat(orphan.pendingReason()).isEqualTo(PendingReason.WaitingForNodePool.name());
        assertThat(orphan.queueName()).isNull();
        assertThat(orphan.clusterQueue()).isNull();
    }

    @Test
    void aMisspeltQueueKeyIsRefusedEvenWherePriorityOnlyModeIsAllowed() {
        allowPriorityOnly("team-a");
        String misspelt = Manifests.job("typo", "lq", "1", null).replace("kueue.x-k8s.io/queue-name", "kueue.x-k8s.io/queue");

        assertThatThrownBy(() -> service.submit(document(misspelt), null, "alice")).isInstanceOfSatisfying(Refusal.class, e -> {
            assertThat(e.getMessage()).contains("'kueue.x-k8s.io/queue' is not where Kueue reads the LocalQueue")
                    .contains("kueue.x-k8s.io/queue-name");
            assertThat(e.errors()).singleElement().satisfies(error -> assertThat(error)
                    .extracting("path").isEqualTo("metadata.labels.kueue.x-k8s.io/queue"));
        });
        assertThat(rows()).isZero();
    }

    private void allowPriorityOnly(String namespace) {
        jdbc.sql("INSERT INTO namespace (name, labels) VALUES (?, jsonb_build_object('platform.dev/priority-only', 'allowed'))")
                .param(namespace).update();
    }

    @Test
    void aCancelIsDoneOnceAuditedAndAnnounced() {
        WorkloadRow train = service.submit(document(Manifests.job("train", "lq", "1", null)), null, "alice").workload();

        WorkloadRow cancelled = service.cancel("team-a", "train", "alice");
        WorkloadRow again = service.cancel("team-a", "train", "bob");

        assertThat(cancelled.state()).isEqualTo(WorkloadState.Finished);
        assertThat(again).isEqualTo(cancelled);
        assertThat(events.stream(WorkloadCancelled.class))
                .containsExactly(new WorkloadCancelled(train.uid(), "team-a", "train", null));
        assertThat(jdbc.sql("SELECT actor || ' ' || action || ' ' || subject FROM access_audit").query(String.class).list())
                .containsExactly("alice " + AccessAuditEntry.Action.WorkloadCancelled + " team-a/train");
        assertThatThrownBy(() -> service.cancel("team-a", "nope", "alice")).isInstanceOfSatisfying(Refusal.class,
                e -> assertThat(e.kind()).isEqualTo(Refusal.Kind.NotFound));
    }
}
