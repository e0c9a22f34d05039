package dev.platform.scheduler.workload;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestParser;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.scheduler.refusal.Refusal;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.PlatformClient;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Group commit: each submission is checked on its request's thread, and the checked submissions of one group are
 * one transaction under the writers' lock, in the order they came, each answered after the commit; what changed
 * since the checks (a key or a name taken meanwhile) is checked again; one that cannot be stored fails none of
 * the others.
 */
class SubmissionWriterTest extends PlatformApplicationTest {

    @Autowired
    SubmissionWriter writer;
    @Autowired
    WorkloadService workloads;
    @Autowired
    ManifestParser parser;
    @Autowired
    MeterRegistry meters;
    @Autowired
    WorkloadStatuses statuses;
    @Autowired
    WorkloadStore store;
    @Autowired
    WorkloadTransitions transitions;
    @Autowired
    TransactionTemplate transactions;

    @BeforeEach
    void aQueueCoveringCpuAndAWorkloadNamedTaken() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        // Held: nothing is admitted, so each row keeps the change sequence of its submission.
        assertThat(api.post("/api/v1/clusterqueues/cq/stop", "application/json", "").status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("taken", "lq", "1", null))
                .status()).isEqualTo(201);
    }

    @Test
    void aGroupCommitsInOneTransactionInItsOrderAndWhatWasTakenSinceItsChecksIsCheckedAgain() {
        SubmissionWriter.Waiting first = waiting(Manifests.job("first", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting keyed = waiting(Manifests.job("keyed", "lq", "1", null), "key-1", "alice");
        SubmissionWriter.Waiting retried = waiting(Manifests.job("keyed", "lq", "1", null), "key-1", "alice");
        SubmissionWriter.Waiting nameTakenMeanwhile = waiting(Manifests.job("meanwhile", "lq", "1", null), null,
                "alice");
        SubmissionWriter.Waiting keyStoredMeanwhile = waiting(Manifests.job("stored", "lq", "1", null), "key-2",
                "alice");
        SubmissionWriter.Waiting twice = waiting(Manifests.job("twice", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting twiceAgain = waiting(Manifests.job("twice", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting last = waiting(Manifests.job("last", "lq", "1", null), null, "bob");
        // Other requests, answered between the checks above and the group's transaction.
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("meanwhile", "lq", "1", null))
                .status()).isEqualTo(201);
        PlatformClient.Response stored = api.send(api.request("/api/v1/namespaces/team-a/workloads")
                .header("Content-Type", "application/yaml").header("Idempotency-Key", "key-2")
                .POST(HttpRequest.BodyPublishers.ofString(Manifests.job("stored", "lq", "1", null))));
        assertThat(stored.status()).isEqualTo(201);

        long countBefore = groupSizes().count();
        double totalBefore = groupSizes().totalAmount();
        writer.write(List.of(first, keyed, retried, nameTakenMeanwhile, keyStoredMeanwhile, twice, twiceAgain, last));

        assertThat(keyed.answer().join().submitted().created()).isTrue();
        assertThat(retried.answer().join().submitted().created()).as("the retry in the same group").isFalse();
        assertThat(retried.answer().join().submitted().workload().uid()).isEqualTo(keyed.answer().join().submitted().workload().uid());
        assertThatThrownBy(nameTakenMeanwhile.answer()::join).isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.Conflict));
        assertThat(keyStoredMeanwhile.answer().join().submitted().created()).as("answered as the stored request was").isFalse();
        assertThat(keyStoredMeanwhile.answer().join().submitted().workload().uid().toString())
                .isEqualTo(stored.json().get("uid").asString());
        assertThat(twice.answer().join().submitted().created()).isTrue();
        assertThatThrownBy(twiceAgain.answer()::join).cause()
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.Conflict));

        assertThat(jdbc.sql("SELECT name FROM workload WHERE name NOT IN ('taken', 'meanwhile', 'stored')"
                        + " ORDER BY change_seq").query(String.class).list())
                .as("the feed's order is the group's").containsExactly("first", "keyed", "twice", "last");
        assertThat(jdbc.sql("SELECT name FROM workload WHERE name IN ('first', 'keyed', 'twice', 'last')"
                        + " ORDER BY queue_timestamp, uid").query(String.class).list())
                .as("queued in the group's order").containsExactly("first", "keyed", "twice", "last");
        assertThat(groupSizes().count() - countBefore).as("one commit").isOne();
        assertThat(groupSizes().totalAmount() - totalBefore).isEqualTo(8);
        assertThat(jdbc.sql("SELECT count(*) FROM workload_event e JOIN workload w ON w.uid = e.workload_uid"
                + " WHERE w.name = 'twice' AND e.message = 'Waiting for the scheduler'").query(Long.class).single())
                .as("the refused duplicate added no submission event").isOne();
        assertThat(first.answer().join().submitted().workload().name()).isEqualTo("first");
        assertThat(last.answer().join().submitted().workload().name()).isEqualTo("last");
        assertThat(first.answer().join().submitted().workload().submittedBy()).as("each submission keeps its submitter")
                .isEqualTo("alice");
        assertThat(last.answer().join().submitted().workload().submittedBy()).isEqualTo("bob");
        assertThat(last.answer().join().status().positionInClusterQueue())
                .as("its status, read with the group's after the commit: behind the six before it").isEqualTo(6);
    }

    /**
     * A created submission is answered with the status its commit left, built from what the group wrote (its only
     * condition, its manifest's priority boost, no forecast yet) and its place in the queue: the same status a read
     * gives. Compared inside the group's transaction, under the writers' lock, so no scheduling cycle notes a reason
     * in between; a retry in the group (found, not created) is read.
     */
    @Test
    void aCreatedSubmissionIsAnsweredWithTheStatusAReadGives() {
        SubmissionWriter.Waiting plain = waiting(Manifests.job("plain", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting boosted = waiting("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: boosted
                  labels: {kueue.x-k8s.io/queue-name: lq}
                  annotations: {kueue.x-k8s.io/priority-boost: "40"}
                spec:
                  template:
                    spec:
                      containers: [{name: main, image: busybox, resources: {requests: {cpu: "1"}}}]
                """, "boost-1", "bob");
        SubmissionWriter.Waiting inactive = waiting(Manifests.workload("inactive", "lq", "active: false"), null,
                "alice");
        SubmissionWriter.Waiting another = waiting(Manifests.job("another", "lq", "1", null), null, "bob");
        PlatformClient.Response stored = keyed(Manifests.job("stored-before", "lq", "1", null), "stored-1");
        assertThat(stored.status()).isEqualTo(201);
        SubmissionWriter.Waiting storedRetry = waiting(Manifests.job("stored-before", "lq", "1", null), "stored-1",
                "alice");
        List<SubmissionWriter.Waiting> group = List.of(plain, boosted, inactive, another, storedRetry);

        Map<String, List<WorkloadStatus>> answeredAndRead = transactions.execute(status -> {
            transitions.lockChanges();
            writer.write(group);
            List<WorkloadRow> rows = group.stream().map(w -> w.answer().join().submitted().workload()).toList();
            List<WorkloadStatus> read = statuses.of(List.copyOf(store.findAll(rows.stream().map(WorkloadRow::uid)
                    .toList()).values()));
            return Map.of("answered", group.stream().map(w -> w.answer().join().status()).toList(),
                    "read", rows.stream().map(row -> read.stream().filter(r -> r.uid().equals(row.uid().toString()))
                            .findFirst().orElseThrow()).toList());
        });

        assertThat(answeredAndRead.get("answered")).isEqualTo(answeredAndRead.get("read"));
        assertThat(boosted.answer().join().status().priorityBoost()).as("the manifest's annotation").isEqualTo(40);
        assertThat(storedRetry.answer().join().submitted().created()).isFalse();
        assertThat(inactive.answer().join().status().pendingReason().code()).as("a reason stored with the submission")
                .isEqualTo("Deactivated");
        assertThat(plain.answer().join().status().conditions()).singleElement()
                .satisfies(c -> assertThat(c.type()).isEqualTo("QuotaReserved"));
    }

    /**
     * A manifest PostgreSQL cannot store (the NUL character, which the parser refuses, put in behind its back)
     * fails the group's one statement; the group is written again one by one, and only that submission fails.
     */
    @Test
    void aSubmissionThatCannotBeStoredFailsAloneAndTheRestOfItsGroupCommits() {
        SubmissionWriter.Waiting before = waiting(Manifests.job("before", "lq", "1", null), null, "alice");
        WorkloadManifest parsed = (WorkloadManifest) parse(Manifests.job("unstorable", "lq", "1", null)).manifest();
        Map<String, Object> withNul = new LinkedHashMap<>(parsed.manifest());
        withNul.put("note", "a\u0000b");
        WorkloadManifest m = parsed;
        DecodedDocument unstorableDocument = new DecodedDocument(0, new WorkloadManifest(m.kind(), m.apiVersion(),
                m.metadata(), m.queueName(), m.workloadPriorityClassName(), m.priorityClassName(),
                m.explicitPriority(), m.podSets(), m.exclusiveTopology(), m.maxRestarts(), m.restartStrategy(),
                m.suspend(), m.maximumExecutionTimeSeconds(), m.active(), withNul), List.of());
        SubmissionWriter.Waiting unstorable = new SubmissionWriter.Waiting(
                workloads.check(unstorableDocument, null, "alice"));
        SubmissionWriter.Waiting after = waiting(Manifests.job("after", "lq", "1", null), null, "alice");

        writer.write(List.of(before, unstorable, after));

        assertThat(before.answer().join().submitted().created()).isTrue();
        assertThat(after.answer().join().submitted().created()).isTrue();
        assertThatThrownBy(unstorable.answer()::join).isInstanceOf(CompletionException.class)
                .cause().isNotInstanceOf(Refusal.class);
        assertThat(jdbc.sql("SELECT name FROM workload WHERE name IN ('before', 'unstorable', 'after')"
                + " ORDER BY change_seq").query(String.class).list()).containsExactly("before", "after");
    }

    /**
     * A submission reads the configuration from memory while nothing changed it; each change is seen by the next
     * submission: a quota raised, a LocalQueue moved to another ClusterQueue, a default priority class added.
     */
    @Test
    void eachSubmissionReadsTheConfigurationAsTheLatestChangeLeftIt() {
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("big", "lq", "8", null))
                .status()).as("8 cpu, more than the 4 the queue could ever give").isEqualTo(422);
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "16", "Never")).status()).isEqualTo(200);
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("big", "lq", "8", null))
                .status()).as("the quota raised").isEqualTo(201);

        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("other-cq", "4", "Never")).status()).isEqualTo(200);
        PlatformClient.Response moved = api.postYaml("/api/v1/namespaces/team-a/workloads",
                Manifests.job("moved", "lq", "1", null));
        assertThat(moved.status()).isEqualTo(201);
        assertThat(moved.json().get("clusterQueue").asString()).as("the LocalQueue feeds other-cq now")
                .isEqualTo("other-cq");

        assertThat(api.postYaml("/api/v1/manifests", """
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: everyday}
                value: 7
                globalDefault: true
                """).status()).isEqualTo(200);
        PlatformClient.Response defaulted = api.postYaml("/api/v1/namespaces/team-a/workloads",
                Manifests.job("defaulted", "lq", "1", null));
        assertThat(defaulted.status()).isEqualTo(201);
        assertThat(defaulted.json().get("priority").asInt()).as("the new global default").isEqualTo(7);
    }

    @Test
    void aRequestIsAnsweredAsItsOwnTransactionWouldBe() {
        PlatformClient.Response taken = api.postYaml("/api/v1/namespaces/team-a/workloads",
                Manifests.job("taken", "lq", "1", null));
        assertThat(taken.status()).isEqualTo(409);
        assertThat(taken.json().get("detail").asString()).as("what to do next").isEqualTo("Job \"team-a/taken\""
                + " already exists: submit under another name, or delete it first (DELETE"
                + " /api/v1/namespaces/team-a/workloads/taken; its history stays); a retry of the same submission"
                + " answers the first one when both carry the same Idempotency-Key header");
        assertThat(writer.submit(parse(Manifests.job("alone", "lq", "1", null)), null, "alice").submitted().created()).isTrue();
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/alone").status()).isEqualTo(200);
        assertThatThrownBy(() -> writer.submit(parse("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: uncovered, labels: {kueue.x-k8s.io/queue-name: lq}}
                spec:
                  template:
                    spec:
                      containers: [{name: main, image: busybox, resources: {requests: {nvidia.com/gpu: "1"}}}]
                """), null, "alice")).as("refused by its checks, before it waits for a group")
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.Invalid));
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/uncovered").status()).isEqualTo(404);
    }

    /**
     * A submission is checked on its request's thread against the configuration as last read; when the
     * configuration changes before its group is stored, the group checks it again: stored as the configuration at
     * its commit allows, or refused with nothing written.
     */
    @Test
    void aConfigurationChangedAfterTheChecksIsCheckedAgainWhenTheGroupIsStored() {
        SubmissionWriter.Waiting moved = waiting(Manifests.job("moved-later", "lq", "1", null), null, "alice");
        SubmissionWriter.Waiting shrunk = waiting(Manifests.job("shrunk-later", "lq", "3", null), null, "alice");
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("other-cq", "2", "Never")).status())
                .as("lq now feeds other-cq, of 2 cpu").isEqualTo(200);

        writer.write(List.of(moved, shrunk));

        assertThat(moved.answer().join().submitted().workload().clusterQueue()).isEqualTo("other-cq");
        assertThatThrownBy(shrunk.answer()::join).cause()
                .isInstanceOfSatisfying(Refusal.class, r -> assertThat(r.kind()).isEqualTo(Refusal.Kind.Invalid));
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/shrunk-later").status()).isEqualTo(404);
    }

    /**
     * The request's checks look nothing up: whether the key was stored is left to the group, but a retry the checks
     * refuse now (its ClusterQueue shrank below what it asks) is looked up and answered as its first request was.
     */
    @Test
    void aRetryTheChecksWouldRefuseNowIsAnsweredAsItsFirstRequestWas() {
        PlatformClient.Response first = keyed(Manifests.job("big", "lq", "3", null), "big-1");
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "2", "Never")).status()).isEqualTo(200);

        PlatformClient.Response retry = keyed(Manifests.job("big", "lq", "3", null), "big-1");
        assertThat(retry.status()).as(retry.body()).isEqualTo(201);
        assertThat(retry.json().get("uid").asString()).isEqualTo(first.json().get("uid").asString());
        PlatformClient.Response another = keyed(Manifests.job("bigger", "lq", "3", null), "big-2");
        assertThat(another.status()).as("a new submission the checks refuse: " + another.body()).isEqualTo(422);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/bigger").status()).isEqualTo(404);
    }

    private PlatformClient.Response keyed(String yaml, String idempotencyKey) {
        return api.send(api.request("/api/v1/namespaces/team-a/workloads")
                .header("Content-Type", "application/yaml").header("Idempotency-Key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(yaml)));
    }

    private DistributionSummary groupSizes() {
        return meters.get("platform.submission.group.size").summary();
    }

    private SubmissionWriter.Waiting waiting(String yaml, String idempotencyKey, String submittedBy) {
        return new SubmissionWriter.Waiting(workloads.check(parse(yaml), idempotencyKey, submittedBy));
    }

    private DecodedDocument parse(String yaml) {
        return parser.parseWorkload(yaml.getBytes(StandardCharsets.UTF_8), ManifestParser.Format.YAML, "team-a",
                FieldValidation.Strict);
    }
}
