package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AdoptionSubmission;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.scheduler.testsupport.Manifests;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import static dev.platform.scheduler.cluster.AgentCalls.delta;
import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static dev.platform.scheduler.cluster.AgentCalls.workload;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Workload states moved by what agents report; Kueue-style submissions adopted from the cluster. */
class WorkloadRunStateReportTest extends PlatformApplicationTest {

    AgentCalls agent;

    @BeforeEach
    void setUp() {
        agent = new AgentCalls(port);
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "Never")).status()).isEqualTo(200);
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
    }

    @Test
    void admittedRunningFinishedFromReportsAndTheQuotaIsReleased() {
        String uid = submitAndAwaitAdmission("train", "3");
        assertThat(api.get("/api/v1/clusterqueues/cq").json().at("/usage/0/used").asString()).isEqualTo("3");

        Response running = agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(),
                List.of(workload(uid, "train", WorkloadPhase.RUNNING, List.of("tpu-0")))));
        assertThat(running.status()).as(running.body()).isEqualTo(200);

        JsonNode status = api.get("/api/v1/namespaces/team-a/workloads/train").json();
        assertThat(status.get("state").asString()).isEqualTo("Running");
        JsonNode placed = api.get("/api/v1/clusters/prod-1/nodepools").json().at("/items/0/workloads/0");
        assertThat(placed.get("uid").asString()).isEqualTo(uid);
        assertThat(placed.get("name").asString()).isEqualTo("train");
        assertThat(placed.get("phase").asString()).isEqualTo("RUNNING");

        agent.report("prod-1", delta("prod-1", "agent-a", 3, List.of(), List.of(),
                List.of(workload(uid, "train", WorkloadPhase.SUCCEEDED, List.of()))));

        status = api.get("/api/v1/namespaces/team-a/workloads/train").json();
        assertThat(status.get("state").asString()).isEqualTo("Finished");
        JsonNode finished = condition(status, "Finished");
        assertThat(finished.get("status").asString()).isEqualTo("True");
        assertThat(finished.get("reason").asString()).isEqualTo("Succeeded");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/train/events").json().get("items"))
                .extracting(e -> e.get("type").asString()).contains("PodsReady", "Finished");
        assertThat(api.get("/api/v1/clusterqueues/cq").json().at("/usage/0/used").asString()).isEqualTo("0");
        assertThat(jdbc.sql("SELECT count(*) FROM workload_usage").query(Long.class).single()).isZero();
    }

    @Test
    void aFailedJobSetFailsTheWorkloadAndTheSchedulerAdmitsTheNextOne() {
        String first = submitAndAwaitAdmission("first", "4");
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("second", "lq", "4", null));

        agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(),
                List.of(workload(first, "first", WorkloadPhase.FAILED, List.of()))));

        JsonNode status = api.get("/api/v1/namespaces/team-a/workloads/first").json();
        assertThat(status.get("state").asString()).isEqualTo("Failed");
        assertThat(condition(status, "Finished").get("reason").asString()).isEqualTo("Failed");
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/second").json().get("state").asString(),
                "Admitted"::equals);
    }

    /**
     * The pods completed in the instant the workload was preempted, before its cluster said so: the STOP finds the
     * JobSet Completed, and the cluster reports it so. Kueue's job reconciler finishes a workload whose job finished
     * before it handles an eviction; requeued instead, it would be admitted again and then finished at once by any
     * report still showing the completed JobSet, an admission that ran nothing.
     */
    @Test
    void aJobSetThatCompletedAsItsWorkloadWasPreemptedFinishesTheWorkload() {
        assertThat(api.postYaml("/api/v1/manifests", Manifests.queue("cq", "4", "LowerPriority") + "---\n"
                + Manifests.priorityClass("high", 1000)).status()).isEqualTo(200);
        String low = submitAndAwaitAdmission("low", "4");
        agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(),
                List.of(workload(low, "low", WorkloadPhase.RUNNING, List.of("tpu-0")))));
        api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job("high", "lq", "4", "high"));
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/high").json().get("state").asString(),
                "Admitted"::equals);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/low").json().get("state").asString())
                .isEqualTo("Pending");

        Response completed = agent.report("prod-1", delta("prod-1", "agent-a", 3, List.of(), List.of(),
                List.of(workload(low, "low", WorkloadPhase.SUCCEEDED, List.of()))));

        assertThat(completed.status()).as(completed.body()).isEqualTo(200);
        JsonNode status = api.get("/api/v1/namespaces/team-a/workloads/low").json();
        assertThat(status.get("state").asString()).isEqualTo("Finished");
        assertThat(condition(status, "Finished").get("reason").asString()).isEqualTo("Succeeded");
        assertThat(api.get("/api/v1/clusterqueues/cq/pendingworkloads").json().get("items")).isEmpty();
    }

    @Test
    void unknownWorkloadsAndPendingOnesAreLeftAlone() {
        api.postYaml("/api/v1/manifests", Manifests.job("big", "lq", "8", null)
                .replace("metadata:", "metadata:\n  namespace: team-a"));
        String pending = api.get("/api/v1/namespaces/team-a/workloads/big").json().get("uid").asString();

        Response report = agent.report("prod-1", delta("prod-1", "agent-a", 2, List.of(), List.of(), List.of(
                workload(UUID.randomUUID().toString(), "ghost", WorkloadPhase.RUNNING, List.of("tpu-0")),
                workload("not-a-uid", "junk", WorkloadPhase.SUCCEEDED, List.of()),
                workload(pending, "big", WorkloadPhase.SUCCEEDED, List.of()))));

        assertThat(report.status()).isEqualTo(200);
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/big").json().get("state").asString())
                .isEqualTo("Pending");
        assertThat(jdbc.sql("SELECT count(*) FROM cluster_workload WHERE workload_uid <> ?::uuid")
                .param(pending).query(Long.class).single()).isZero();
    }

    @Test
    void aSuspendedJobSetWithAQueueLabelIsAdoptedOnceEvenWithAFieldOfANewerJobSetAndABadOneIsReported() {
        AdoptionSubmission good = submission("adopted-1", "uid-1", """
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                 "metadata": {"name": "adopted-1", "namespace": "team-a", "uid": "uid-1", "resourceVersion": "17",
                              "labels": {"kueue.x-k8s.io/queue-name": "lq"}},
                 "spec": {"suspend": true, "aFieldOfANewerJobSet": {"on": true}, "replicatedJobs": [{"name": "w", "replicas": 1, "template": {"spec": {
                   "parallelism": 1, "completions": 1, "template": {"spec": {"restartPolicy": "Never",
                   "containers": [{"name": "c", "image": "busybox", "resources": {"requests": {"cpu": "1"}}}]}}}}}]},
                 "status": {}}""");
        AdoptionSubmission bad = submission("adopted-2", "uid-2", """
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
                 "metadata": {"name": "adopted-2", "namespace": "team-a", "labels": {"kueue.x-k8s.io/queue-name": "lq"}},
                 "spec": {"replicatedJobs": "not a list"}}""");

        Response first = agent.report("prod-1", withSubmissions(2, good, bad));
        Response again = agent.report("prod-1", withSubmissions(3, good));

        assertThat(first.status()).as(first.body()).isEqualTo(200);
        assertThat(first.json().get("rejectedSubmissions")).singleElement()
                .satisfies(r -> assertThat(r.get("jobSetUid").asString()).isEqualTo("uid-2"));
        assertThat(again.json().get("rejectedSubmissions")).isEmpty();
        assertThat(api.get("/api/v1/namespaces/team-a/workloads").json().get("items"))
                .extracting(w -> w.get("name").asString()).containsExactly("adopted-1");
        assertThat(api.get("/api/v1/namespaces/team-a/workloads/adopted-1").json().get("submittedBy").isNull())
                .as("created in the cluster, submitted by nobody here").isTrue();
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/adopted-1").json().get("state").asString(),
                "Admitted"::equals);
    }

    private String submitAndAwaitAdmission(String name, String cpu) {
        Response submitted = api.postYaml("/api/v1/namespaces/team-a/workloads", Manifests.job(name, "lq", cpu, null));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20)).until(
                () -> api.get("/api/v1/namespaces/team-a/workloads/" + name).json().get("state").asString(),
                "Admitted"::equals);
        return submitted.json().get("uid").asString();
    }

    private static JsonNode condition(JsonNode status, String type) {
        for (JsonNode condition : status.get("conditions")) {
            if (condition.get("type").asString().equals(type)) {
                return condition;
            }
        }
        throw new AssertionError("no condition " + type + " in " + status);
    }

    private static AdoptionSubmission submission(String name, String uid, String manifest) {
        return new AdoptionSubmission("team-a", name, uid, "lq", Instant.now(), AgentCalls.JSON.readTree(manifest));
    }

    private static AgentReport withSubmissions(long sequence, AdoptionSubmission... submissions) {
        return new AgentReport("prod-1", "agent-a", true, sequence, Instant.now(), ReportKind.DELTA, List.of(),
                List.of(), List.of(), List.of(submissions));
    }
}
