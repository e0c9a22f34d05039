package dev.platform.agent.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.platform.agent.Agent;
import dev.platform.agent.cluster.ClusterPod;
import dev.platform.agent.cluster.JobKind;
import dev.platform.agent.health.NodePool;
import dev.platform.agent.report.ClusterInventory;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.GkeLabels;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.agent.testing.MutableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

class SimulatedClusterTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final SimulatedCluster cluster = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock);
    private final ClusterInventory inventory = new ClusterInventory();
    private final JsonMapper json = Agent.json();

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void startsWithFourV6eSlicesOfFourHostsAndACpuPool() {
        List<NodePoolReport> pools = NodePool.aggregate(cluster.nodes());

        assertThat(pools).extracting(NodePoolReport::name)
                .containsExactly("sim-cpu", "sim-v6e-4x4-0", "sim-v6e-4x4-1", "sim-v6e-4x4-2", "sim-v6e-4x4-3");
        NodePoolReport slice = pools.get(1);
        assertThat(slice.accelerator()).isEqualTo("tpu-v6e-slice");
        assertThat(slice.topology()).isEqualTo("4x4");
        assertThat(slice.nodes()).hasSize(4).allSatisfy(n -> assertThat(n.chipCapacity()).isEqualTo(4));
        assertThat(pools).allSatisfy(p -> assertThat(p.state()).isEqualTo(HealthState.HEALTHY));
    }

    @Test
    void aFailedPoolIsUnhealthyAndItsPodsFailUntilItRecovers() {
        cluster.watch(inventory);
        cluster.createJobSet(jobSet("train", "wl-1", List.of("sim-v6e-4x4-1"), null));
        assertThat(cluster.podsOf("wl-1")).hasSize(8).allSatisfy(p -> assertThat(p.phase()).isEqualTo("Running"));

        cluster.failPool("sim-v6e-4x4-1");

        NodePoolReport failed = poolReport("sim-v6e-4x4-1");
        assertThat(failed.state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(failed.reasons()).contains(NodeHealthReason.NOT_READY, NodeHealthReason.UNREACHABLE);
        assertThat(poolReport("sim-v6e-4x4-0").state()).isEqualTo(HealthState.HEALTHY);
        assertThat(cluster.podsOf("wl-1")).allSatisfy(p -> assertThat(p.phase()).isEqualTo("Failed"));

        cluster.recoverPool("sim-v6e-4x4-1");

        assertThat(poolReport("sim-v6e-4x4-1").state()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void podsSucceedAfterTheSimulatedRuntimeAndTheJobSetCompletes() {
        cluster.watch(inventory);
        cluster.createJobSet(jobSet("short", "wl-2", List.of("sim-v6e-4x4-0", "sim-v6e-4x4-2"), "90s"));
        List<ClusterPod> pods = cluster.podsOf("wl-2");
        assertThat(pods).hasSize(8);
        assertThat(pods).extracting(p -> p.nodeName().substring(0, "sim-v6e-4x4-0".length()))
                .containsOnly("sim-v6e-4x4-0", "sim-v6e-4x4-2");
        assertThat(pods).extracting(ClusterPod::nodeName).doesNotHaveDuplicates();

        clock.advance(Duration.ofSeconds(89));
        cluster.advance();
        assertThat(cluster.podsOf("wl-2")).allSatisfy(p -> assertThat(p.phase()).isEqualTo("Running"));

        clock.advance(Duration.ofSeconds(1));
        cluster.advance();

        assertThat(cluster.podsOf("wl-2")).allSatisfy(p -> assertThat(p.phase()).isEqualTo("Succeeded"));
        assertThat(cluster.jobSet("default", "short").orElseThrow().terminalState()).isEqualTo("Completed");
        assertThat(inventory.full().workloads()).singleElement()
                .satisfies(w -> assertThat(w.phase()).isEqualTo(WorkloadPhase.SUCCEEDED));
    }

    @Test
    void aBatchJobRunsItsPodsOnOnePoolAndCompletesWithTheJobControllersCondition() {
        cluster.watch(inventory);
        ObjectNode job = json.createObjectNode();
        job.put("apiVersion", "batch/v1").put("kind", "Job");
        ObjectNode metadata = job.putObject("metadata").put("name", "etl").put("namespace", "default");
        metadata.putObject("labels").put(AgentProtocol.MANAGED_LABEL, "true").put(AgentProtocol.WORKLOAD_UID_LABEL, "wl-job");
        metadata.putObject("annotations").put(SimulatedCluster.RUNTIME_ANNOTATION, "30s");
        ObjectNode template = job.putObject("spec").put("parallelism", 4).put("completions", 4).putObject("template");
        template.putObject("metadata").putObject("labels").put(AgentProtocol.MANAGED_LABEL, "true")
                .put(AgentProtocol.WORKLOAD_UID_LABEL, "wl-job");
        template.putObject("spec").putObject("nodeSelector").put(GkeLabels.NODE_POOL, "sim-v6e-4x4-2");

        cluster.createJob(JobKind.JOB, job);

        assertThat(cluster.jobSet("default", "etl")).as("a Job, not a JobSet").isEmpty();
        assertThat(cluster.podsOfJob(JobKind.JOB, "default", "etl")).hasSize(4)
                .allSatisfy(p -> assertThat(p.nodeName()).startsWith("sim-v6e-4x4-2-node-"));
        clock.advance(Duration.ofSeconds(30));
        cluster.advance();
        assertThat(cluster.job(JobKind.JOB, "default", "etl").orElseThrow().terminalState()).isEqualTo("Completed");
        assertThat(inventory.full().workloads()).singleElement()
                .satisfies(w -> assertThat(w.phase()).isEqualTo(WorkloadPhase.SUCCEEDED));
    }

    @Test
    void withoutARuntimePodsRunForever() {
        cluster.createJobSet(jobSet("forever", "wl-3", List.of("sim-v6e-4x4-3"), null));

        clock.advance(Duration.ofDays(365));
        cluster.advance();

        assertThat(cluster.podsOf("wl-3")).allSatisfy(p -> assertThat(p.phase()).isEqualTo("Running"));
    }

    @Test
    void suspendingRemovesThePodsAndResumingPlacesThemAgain() {
        cluster.createJobSet(jobSet("pausable", "wl-4", List.of("sim-v6e-4x4-0"), null));
        ObjectNode suspend = json.createObjectNode();
        suspend.putObject("spec").put("suspend", true);

        cluster.patchJobSet("default", "pausable", suspend);
        assertThat(cluster.podsOf("wl-4")).isEmpty();

        suspend.withObject("spec").put("suspend", false);
        cluster.patchJobSet("default", "pausable", suspend);
        assertThat(cluster.podsOf("wl-4")).hasSize(8);
    }

    @Test
    void readsTheRuntimeInTheUsualNotations() {
        assertThat(SimulatedCluster.runtimeOf(jobSet("x", "u", List.of(), "PT2M"))).isEqualTo(Duration.ofMinutes(2));
        assertThat(SimulatedCluster.runtimeOf(jobSet("x", "u", List.of(), "500ms"))).isEqualTo(Duration.ofMillis(500));
        assertThat(SimulatedCluster.runtimeOf(jobSet("x", "u", List.of(), "3h"))).isEqualTo(Duration.ofHours(3));
        assertThat(SimulatedCluster.runtimeOf(jobSet("x", "u", List.of(), null))).isNull();
    }

    @Test
    void aClusterKeptInAFileStartsAgainWithItsJobSetsPodsAndFailedPoolsAndFinishesWhatCameDueMeanwhile(
            @TempDir Path directory) throws Exception {
        SimulatedClusterFile file = new SimulatedClusterFile(directory, "sim");
        SimulatedCluster before = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock, file);
        before.createJobSet(jobSet("forever", "wl-1", List.of("sim-v6e-4x4-0", "sim-v6e-4x4-1"), null));
        before.createJobSet(jobSet("short", "wl-2", List.of("sim-v6e-4x4-2"), "90s"));
        before.failPool("sim-v6e-4x4-3");
        String uid = before.jobSet("default", "forever").orElseThrow().uid();
        List<ClusterPod> pods = before.podsOf("wl-1");
        Files.writeString(file.path().resolveSibling(file.path().getFileName() + ".next"), "{\"half\": \"a write cut");

        clock.advance(Duration.ofSeconds(120));
        SimulatedCluster after = new SimulatedCluster(SimulatedClusterLayout.tpuDemo(), clock, file);
        after.watch(inventory);
        after.advance();

        assertThat(after.jobSet("default", "forever").orElseThrow().uid()).isEqualTo(uid);
        assertThat(after.podsOf("wl-1")).isEqualTo(pods).allSatisfy(p -> assertThat(p.phase()).isEqualTo("Running"));
        assertThat(after.jobSetStates()).extracting(SimulatedCluster.JobSetState::name, SimulatedCluster.JobSetState::terminalState)
                .containsExactly(tuple("forever", null), tuple("short", "Completed"));
        assertThat(poolReport("sim-v6e-4x4-3").state()).isEqualTo(HealthState.UNHEALTHY);
        assertThat(poolReport("sim-v6e-4x4-0").state()).isEqualTo(HealthState.HEALTHY);
        after.createJobSet(jobSet("next", "wl-3", List.of("sim-v6e-4x4-2"), null));
        assertThat(after.podsOf("wl-3")).extracting(ClusterPod::name).doesNotContainAnyElementsOf(
                before.podsOf("wl-2").stream().map(ClusterPod::name).toList());
        after.close();
        before.close();
    }

    private NodePoolReport poolReport(String pool) {
        return inventory.full().nodePools().stream().filter(p -> p.name().equals(pool)).findFirst().orElseThrow();
    }

    /** The seed's shape: 2 replicas x 4 pods, one v6e 4x4 slice per replica. */
    private ObjectNode jobSet(String name, String workloadUid, List<String> pools, String runtime) {
        ObjectNode jobSet = json.createObjectNode();
        jobSet.put("apiVersion", "jobset.x-k8s.io/v1alpha2").put("kind", "JobSet");
        ObjectNode metadata = jobSet.putObject("metadata").put("name", name).put("namespace", "default");
        metadata.putObject("labels").put(AgentProtocol.MANAGED_LABEL, "true").put(AgentProtocol.WORKLOAD_UID_LABEL, workloadUid);
        if (runtime != null) {
            metadata.putObject("annotations").put(SimulatedCluster.RUNTIME_ANNOTATION, runtime);
        }
        ObjectNode replicatedJob = jobSet.putObject("spec").putArray("replicatedJobs").addObject()
                .put("name", "slice").put("replicas", 2);
        ObjectNode jobSpec = replicatedJob.putObject("template").putObject("spec").put("parallelism", 4).put("completions", 4);
        ObjectNode podTemplate = jobSpec.putObject("template");
        podTemplate.putObject("metadata").putObject("labels").put(AgentProtocol.WORKLOAD_UID_LABEL, workloadUid);
        ObjectNode podSpec = podTemplate.putObject("spec");
        podSpec.putObject("nodeSelector").put(GkeLabels.TPU_ACCELERATOR, "tpu-v6e-slice");
        if (!pools.isEmpty()) {
            var values = podSpec.putObject("affinity").putObject("nodeAffinity")
                    .putObject("requiredDuringSchedulingIgnoredDuringExecution").putArray("nodeSelectorTerms").addObject()
                    .putArray("matchExpressions").addObject().put("key", GkeLabels.NODE_POOL).put("operator", "In")
                    .putArray("values");
            pools.forEach(values::add);
        }
        return jobSet;
    }
}
