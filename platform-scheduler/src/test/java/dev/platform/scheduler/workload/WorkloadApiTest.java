package dev.platform.scheduler.workload;

import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.SeedManifests;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Submission, reading, queue positions, visibility and cancel of workloads over HTTP, on real PostgreSQL. Listing's
 * keyset pages and filters, and the submissions refused (a name taken, a resource the queue does not cover, a
 * priority class that does not exist), are the slices' ({@link WorkloadStoreTest}, {@link WorkloadServiceTest},
 * {@link PriorityResolverTest}, {@link WorkloadControllerTest}).
 */
class WorkloadApiTest extends PlatformApplicationTest {

    @BeforeEach
    void setUp() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
    }

    @Test
    void submissionAnswers201WithLocationAndTheStatus() {
        Response response = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("train", "lq", "1", null));

        assertThat(response.status()).as(response.body()).isEqualTo(201);
        JsonNode status = response.json();
        assertThat(status.get("namespace").asString()).isEqualTo("team-a");
        assertThat(status.get("kind").asString()).isEqualTo("Job");
        assertThat(status.get("queueName").asString()).isEqualTo("lq");
        assertThat(status.get("clusterQueue").asString()).isEqualTo("cq");
        assertThat(status.at("/podSets/0/name").asString()).isEqualTo("main");
        assertThat(status.at("/podSets/0/requests/cpu").asString()).isEqualTo("1");
        assertThat(status.get("uid").asString()).hasSize(36);

        JsonNode admitted = await().atMost(Duration.ofSeconds(20))
                .until(() -> api.get("/api/v1/namespaces/team-a/workloads/train").json(),
                        w -> w.get("state").asString().equals("Admitted"));
        assertThat(admitted.at("/admission/podSetAssignments/0/flavors/cpu").asString()).isEqualTo("default");
        assertThat(admitted.get("admittedAt").isNull()).isFalse();
    }

    @Test
    void aWorkloadNamesTheCallerWhoSubmittedItOverEitherPath() {
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("posted", "lq", "1", null));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        assertThat(submitted.json().get("submittedBy").asString()).isEqualTo("admin");

        Response applied = api.postYaml("/api/v1/manifests", Manifests.job("applied", "lq", "1", null)
                .replace("  name: applied", "  name: applied\n  namespace: team-a"));
        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/applied").json().get("submittedBy").asString())
                .isEqualTo("admin");
    }

    @Test
    void aMisspeltParallelismIsRefusedUnlessTheSubmitterAsksForWarnOrIgnore() {
        String misspelt = Manifests.onePodJobSet("typo", Map.of("kueue.x-k8s.io/queue-name", "lq"),
                Map.of(), "1").replace("replicas: 1", "replicas: 2").replace("parallelism: 1", "paralelism: 4");
        String path = "spec.replicatedJobs[0].template.spec.paralelism";

        Response refused = api.postYaml("/api/v1/namespaces/team-a/workloads", misspelt);
        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().at("/errors/0/path").asString()).isEqualTo(path);
        assertThat(refused.json().at("/errors/0/message").asString())
                .isEqualTo("unknown field \"" + path + "\"; did you mean \"parallelism\"?");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/typo").status()).isEqualTo(404);

        Response warned = api.postYaml("/api/v1/namespaces/team-a/workloads?fieldValidation=Warn", misspelt);
        assertThat(warned.status()).as(warned.body()).isEqualTo(201);
        assertThat(warned.headers().allValues("Warning")).containsExactly(
                "299 - \"unknown field \\\"" + path + "\\\"; did you mean \\\"parallelism\\\"?\"");
        assertThat(warned.json().at("/warnings/0").asString()).isEqualTo("unknown field \"" + path
                + "\"; did you mean \"parallelism\"?");
        // as Kubernetes would run it: parallelism 1 in each of the 2 Jobs
        assertThat(warned.json().at("/podSets/0/count").asInt()).isEqualTo(2);

        Response ignored = api.postYaml("/api/v1/namespaces/team-a/workloads?fieldValidation=Ignore",
                misspelt.replace("name: typo", "name: typo-ignored"));
        assertThat(ignored.status()).as(ignored.body()).isEqualTo(201);
        assertThat(ignored.headers().allValues("Warning")).isEmpty();
        assertThat(ignored.json().has("warnings")).isFalse();
    }

    @Test
    void idempotencyKeyReturnsTheFirstResult() throws Exception {
        List<PlatformClient.Response> responses = new ArrayList<>();
        for (int attempt = 0; attempt < 2; attempt++) {
            responses.add(api.send(api.request("/api/v1/namespaces/team-a/workloads")
                    .header("Content-Type", "application/yaml").header("Idempotency-Key", "retry-1")
                    .POST(HttpRequest.BodyPublishers.ofString(Manifests.job("once", "lq", "1", null)))));
        }

        assertThat(responses).allSatisfy(r -> assertThat(r.status()).isEqualTo(201));
        assertThat(responses.get(1).header("Location")).isEqualTo(responses.get(0).header("Location"));
        assertThat(api.get("/api/v1/namespaces/team-a/workloads").json().get("items")).hasSize(1);
        assertThat(responses.get(0).json().get("uid")).isEqualTo(responses.get(1).json().get("uid"));

        Response reused = api.send(api.request("/api/v1/namespaces/team-a/workloads")
                .header("Content-Type", "application/yaml").header("Idempotency-Key", "retry-1")
                .POST(HttpRequest.BodyPublishers.ofString(Manifests.job("twice", "lq", "1", null))));
        assertThat(reused.status()).as(reused.body()).isEqualTo(422);
        assertThat(reused.json().at("/errors/0/path").asString()).isEqualTo("Idempotency-Key");
        assertThat(reused.json().at("/errors/0/message").asString())
                .startsWith("Idempotency-Key 'retry-1' was first used to submit Job team-a/once");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads").json().get("items")).hasSize(1);
    }

    @Test
    void aRequestNoQuotaCouldEverGiveIsRefusedNamingTheResourceTheRequestAndTheMaximum() {
        api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  cohort: org
                  preemption: {withinClusterQueue: Never}
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: default, resources: [{name: cpu, nominalQuota: "4", borrowingLimit: "2"}]}]
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: lender}
                spec:
                  cohort: org
                  resourceGroups:
                  - coveredResources: [cpu]
                    flavors: [{name: default, resources: [{name: cpu, nominalQuota: "16"}]}]
                """);

        Response refused = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("huge", "lq", "1600", null));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().at("/errors/0/path").asString())
                .isEqualTo("spec.template.spec.containers[0].resources.requests.cpu");
        assertThat(refused.json().at("/errors/0/message").asString()).isEqualTo("the Job asks for 1600 cpu"
                + " (1 pods x 1600), more than ClusterQueue cq can ever give in one flavor: at most 6 (nominal quota"
                + " plus what it may borrow)");
        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("borrows", "lq", "6", null))
                .status()).isEqualTo(201);
    }

    @Test
    void aJobSetTooBigIsRefusedAtThePathItsAuthorWroteAndWaitsInWordsAUserReads() {
        assertThat(api.postYaml("/api/v1/manifests", SeedManifests.read("seed-kueue.yaml") + "---\n"
                + SeedManifests.document("seed-kueue-and-hotswap.yaml", "high-priority-job")).status()).isEqualTo(200);
        String tooBig = SeedManifests.document("seed-kueue-and-hotswap.yaml", "high-jax-trillium")
                .replace("replicas: 2", "replicas: 4");

        Response refused = api.postYaml("/api/v1/namespaces/default/workloads", tooBig);

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().at("/errors/0/path").asString()).isEqualTo(
                "spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.limits.google.com/tpu");
        assertThat(refused.json().at("/errors/0/message").asString()).isEqualTo("replicatedJob slice asks for 64"
                + " google.com/tpu (16 pods x 4), more than ClusterQueue tpu-training-cq can ever give in one flavor:"
                + " at most 32 (nominal quota plus what it may borrow)");

        Response applied = api.postYaml("/api/v1/manifests", tooBig);
        assertThat(applied.json().at("/results/0/warnings/0").asString()).as(applied.body()).startsWith(
                "spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.limits.google.com/tpu:"
                        + " replicatedJob slice asks for 64");
        JsonNode waiting = await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/default/workloads/high-jax-trillium").json(),
                w -> "ExceedsMaxQuota".equals(w.at("/pendingReason/code").asString()));
        assertThat(waiting.at("/pendingReason/message").asString()).isEqualTo("couldn't assign flavors to pod set"
                + " slice: insufficient quota for google.com/tpu in flavor tpu-v6e-slice: the pod set asks for 64,"
                + " more than the ClusterQueue can ever give (maximum capacity 32: its nominal quota plus what it may"
                + " borrow)");
    }

    @Test
    void aMissingLocalQueueIsRefusedNamingTheNearestLocalQueueOfTheNamespace() {
        Response refused = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("typo", "lqq", "1", null));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().at("/errors/0/path").asString()).isEqualTo("metadata.labels.kueue.x-k8s.io/queue-name");
        assertThat(refused.json().at("/errors/0/message").asString())
                .isEqualTo("LocalQueue lqq does not exist in namespace team-a; the nearest LocalQueue there is lq");
    }

    @Test
    void aWorkloadWithoutQueueNameIsRefusedUntilAnAdminAllowsPriorityOnlyModeForItsNamespace() {
        Response refused = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("orphan", null, "1", null));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().at("/errors/0/path").asString()).isEqualTo("metadata.labels.kueue.x-k8s.io/queue-name");
        assertThat(refused.json().at("/errors/0/message").asString()).contains("LocalQueues of namespace team-a: lq.")
                .contains("platform.dev/priority-only: allowed on Namespace team-a");
        assertThat(api.postYaml("/api/v1/manifests", Manifests.job("orphan", null, "1", null)
                .replace("metadata:", "metadata:\n  namespace: team-a")).status()).isEqualTo(422);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads").json().get("items")).isEmpty();

        assertThat(api.postYaml("/api/v1/manifests", Manifests.priorityOnlyNamespace("team-a")).status()).isEqualTo(200);

        assertThat(api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("orphan", null, "1", null)).status())
                .isEqualTo(201);
    }

    @Test
    void aWorkloadWithoutQueueNameGoesToTheLocalQueueNamedDefault() {
        api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: default, namespace: team-a}
                spec: {clusterQueue: cq}
                """);

        Response response = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("defaulted", null, "1", null));

        assertThat(response.status()).as(response.body()).isEqualTo(201);
        assertThat(response.json().get("queueName").asString()).isEqualTo("default");
        assertThat(response.json().get("clusterQueue").asString()).isEqualTo("cq");
    }

    @Test
    void aWorkloadWithoutQueueNameWaitsInPriorityOnlyModeWithoutQuotaWhereAllowed() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.priorityOnlyNamespace("team-a")).status()).isEqualTo(200);
        Response response = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("orphan", null, "1", null));

        assertThat(response.status()).as(response.body()).isEqualTo(201);
        assertThat(response.json().get("queueName").isNull()).isTrue();
        assertThat(response.json().get("clusterQueue").isNull()).isTrue();
        assertThat(response.json().at("/pendingReason/code").asString()).isEqualTo("WaitingForNodePool");
        assertThat(response.json().at("/pendingReason/message").asString()).contains("priority-only mode");
        assertThat(api.get("/api/v1/clusterqueues/cq").json().get("pendingWorkloads").asLong()).isZero();
    }

    @Test
    void anAppliedWorkloadWhoseLocalQueueIsMissingWaitsWithLocalQueueNotFoundAndAWarning() {
        Response applied = api.postYaml("/api/v1/manifests", Manifests.job("early", "later", "1", null)
                .replace("metadata:", "metadata:\n  namespace: team-a"));

        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(applied.json().at("/results/0/warnings/0").asString()).as(applied.body()).startsWith("metadata.labels.kueue.x-k8s.io/queue-name:"
                + " LocalQueue later does not exist in namespace team-a; the nearest LocalQueue there is lq");
        JsonNode early = api.get("/api/v1/namespaces/team-a/workloads/early").json();
        assertThat(early.at("/pendingReason/code").asString()).isEqualTo("LocalQueueNotFound");
        assertThat(early.at("/pendingReason/message").asString()).isEqualTo("LocalQueue later doesn't exist");

        api.postYaml("/api/v1/manifests", """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: later, namespace: team-a}
                spec: {clusterQueue: cq}
                """);

        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/early").json().get("state").asString(),
                "Admitted"::equals);
    }

    @Test
    void aLocalQueueAppliedInTheSameRequestCountsWhateverTheOrderOfTheDocuments() {
        Response applied = api.postYaml("/api/v1/manifests", Manifests.job("first", "later", "1", null)
                .replace("metadata:", "metadata:\n  namespace: team-a") + """
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: later, namespace: team-a}
                spec: {clusterQueue: cq}
                """);

        assertThat(applied.status()).as(applied.body()).isEqualTo(200);
        assertThat(applied.json().at("/results/0/warnings")).isEmpty();
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/first").json().get("clusterQueue").asString())
                .isEqualTo("cq");
    }

    @Test
    void pendingWorkloadsAreListedInQueueOrderWithPositions() {
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("high", 100));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("running", "lq", "4", null));
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/running").json().get("state").asString(),
                "Admitted"::equals);
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("first", "lq", "1", null));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("second", "lq", "1", null));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("urgent", "lq", "1", "high"));

        List<String> order = api.get("/api/v1/clusterqueues/cq/pendingworkloads").json().get("items").valueStream()
                .map(w -> w.get("name").asString() + "@" + w.get("positionInClusterQueue").asInt()
                        + "/" + w.get("positionInLocalQueue").asInt())
                .toList();
        assertThat(order).containsExactly("urgent@0/0", "first@1/1", "second@2/2");
        assertThat(api.get("/api/v1/namespaces/team-a/localqueues/lq/pendingworkloads?offset=1&limit=1").json()
                .get("items").valueStream().map(w -> w.get("name").asString() + "@" + w.get("positionInClusterQueue").asInt()))
                .containsExactly("first@1");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/second").json().get("positionInClusterQueue").asInt())
                .isEqualTo(2);

        JsonNode queue = api.get("/api/v1/clusterqueues/cq").json();
        assertThat(queue.get("pendingWorkloads").asLong()).isEqualTo(3);
        assertThat(queue.get("admittedWorkloads").asLong()).isEqualTo(1);
        assertThat(queue.at("/usage/0/used").asString()).isEqualTo("4");
        assertThat(queue.at("/usage/0/borrowed").asString()).isEqualTo("0");
    }

    @Test
    void workloadsThatCanNeverRunHaveNoPositionAndAreCountedAheadOfNoOne() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("running", "lq", "4", null));
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/running").json().get("state").asString(),
                "Admitted"::equals);
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("big", "lq", "4", null));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("small", "lq", "1", null));
        api.postYaml("/api/v1/manifests", Manifests.job("orphan", "missing", "1", null)
                .replace("metadata:", "metadata:\n  namespace: team-a"));
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "3", "Never")).status()).isEqualTo(200);

        JsonNode big = await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/big").json(),
                w -> "ExceedsMaxQuota".equals(w.at("/pendingReason/code").asString()));

        assertThat(big.has("positionInClusterQueue")).isTrue();
        assertThat(big.get("positionInClusterQueue").isNull()).isTrue();
        assertThat(big.get("positionInLocalQueue").isNull()).isTrue();
        JsonNode orphan = api.get("/api/v1/namespaces/team-a/workloads/orphan").json();
        assertThat(orphan.at("/pendingReason/code").asString()).isEqualTo("LocalQueueNotFound");
        assertThat(orphan.get("positionInClusterQueue").isNull()).isTrue();
        assertThat(orphan.get("positionInLocalQueue").isNull()).isTrue();
        JsonNode small = api.get("/api/v1/namespaces/team-a/workloads/small").json();
        assertThat(small.get("positionInClusterQueue").asInt()).isZero();
        assertThat(small.get("positionInLocalQueue").asInt()).isZero();
        for (String list : List.of("/api/v1/clusterqueues/cq/pendingworkloads",
                "/api/v1/namespaces/team-a/localqueues/lq/pendingworkloads",
                "/apis/visibility.kueue.x-k8s.io/v1beta2/clusterqueues/cq/pendingworkloads")) {
            assertThat(api.get(list).json().get("items").valueStream().map(w -> w.at("/metadata/name").isMissingNode()
                    ? w.get("name").asString() + "@" + w.get("positionInClusterQueue") + "/" + w.get("positionInLocalQueue")
                    : w.at("/metadata/name").asString() + "@" + w.get("positionInClusterQueue") + "/"
                    + w.get("positionInLocalQueue"))).as(list).containsExactly("small@0/0", "big@null/null");
        }
    }

    @Test
    void thePriorityClassLabelNamingAPriorityClassSaysWhichKindItNamedAndWhatToDo() {
        api.postYaml("/api/v1/manifests", Manifests.priorityClass("high", 100));

        Response refused = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("train", "lq", "1", null)
                .replace("{kueue.x-k8s.io/queue-name: lq}", "{kueue.x-k8s.io/queue-name: lq, kueue.x-k8s.io/priority-class: high}"));

        assertThat(refused.status()).as(refused.body()).isEqualTo(422);
        assertThat(refused.json().at("/errors/0/path").asString()).isEqualTo("metadata.labels.kueue.x-k8s.io/priority-class");
        assertThat(refused.json().at("/errors/0/message").asString()).isEqualTo("WorkloadPriorityClass \"high\" not"
                + " found: \"high\" is a PriorityClass (scheduling.k8s.io/v1), which the label"
                + " kueue.x-k8s.io/priority-class does not name; set priorityClassName: high in the pod templates instead,"
                + " or have an Admin apply a WorkloadPriorityClass (kueue.x-k8s.io) named high");
    }

    @Test
    void cancellingFreesTheQuotaAndIsOnTheTimeline() {
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("big", "lq", "4", null));
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/big").json().get("state").asString(),
                "Admitted"::equals);
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("next", "lq", "4", null));

        Response cancelled = api.delete("/api/v1/namespaces/team-a/workloads/big");

        assertThat(cancelled.json().get("state").asString()).isEqualTo("Finished");
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/next").json().get("state").asString(),
                "Admitted"::equals);
        List<String> timeline = api.get("/api/v1/namespaces/team-a/workloads/big/events").json().get("items")
                .valueStream().map(e -> e.get("type").asString() + "=" + e.get("status").asString()).toList();
        assertThat(timeline).containsSubsequence("QuotaReserved=False", "QuotaReserved=True", "Admitted=True",
                "Finished=True");
        assertThat(api.delete("/api/v1/namespaces/team-a/workloads/nope").status()).isEqualTo(404);
    }
}
