package dev.platform.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.platform.agent.cluster.KubernetesCluster;
import dev.platform.agent.command.EvictionPolicy;
import dev.platform.agent.leadership.Leadership;
import dev.platform.agent.leadership.LeaseLeadership;
import dev.platform.agent.leadership.SoleReplica;
import dev.platform.agent.scheduler.Backoff;
import dev.platform.agent.testing.FakeScheduler;
import dev.platform.agent.testing.MockKubernetes;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.HealthState;
import dev.platform.api.agent.NodeHealthReason;
import dev.platform.api.agent.NodePoolReport;
import dev.platform.api.agent.ReportKind;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.api.manifest.PreemptionAnnotations;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The agent on client-java against fabric8's mock API server, reporting to and commanded by a fake scheduler. */
class KubernetesAgentTest {

    private static final String POOL_LABEL = "cloud.google.com/gke-nodepool";
    private static final Duration WITHIN_A_SECOND = Duration.ofSeconds(1);
    private static final Duration PATIENCE = Duration.ofSeconds(15);

    private final JsonMapper json = Agent.json();
    private MockKubernetes kube;
    private FakeScheduler scheduler;
    private Agent agent;
    private final List<Agent> replicas = new ArrayList<>();

    @BeforeEach
    void startCluster() throws Exception {
        kube = new MockKubernetes();
        scheduler = new FakeScheduler();
        for (int i = 0; i < 4; i++) {
            createNode(tpuNode("slice-a-" + i, "slice-a"));
        }
        createNode(tpuNode("slice-b-0", "slice-b"));
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
        replicas.forEach(Agent::close);
        scheduler.close();
        kube.close();
    }

    private void startAgent() {
        agent = new Agent(settings("agent-1"), new KubernetesCluster(kube.apiClient(), kube.apiClient(), json),
                new SoleReplica(), Clock.systemUTC());
        agent.start();
    }

    /** One of several replicas electing a leader on the Lease; a short lease so failover is quick. */
    private Agent startReplica(String agentId) {
        Agent replica = new Agent(settings(agentId), new KubernetesCluster(kube.apiClient(), kube.apiClient(), json),
                new LeaseLeadership(kube.apiClient(), "default", "platform-agent", agentId, Duration.ofSeconds(2)),
                Clock.systemUTC());
        replicas.add(replica);
        replica.start();
        return replica;
    }

    private AgentSettings settings(String agentId) {
        return new AgentSettings(scheduler.url(), "test-cluster", FakeScheduler.TOKEN, agentId,
                Duration.ofMillis(50), 1, new Backoff(Duration.ofMillis(50), Duration.ofMillis(400)),
                new EvictionPolicy(new Backoff(Duration.ofMillis(20), Duration.ofMillis(100)), Duration.ofSeconds(10)),
                AgentSettings.DEFAULT_HEARTBEAT);
    }

    @Test
    void reportsTheFullInventoryFirst() {
        startAgent();

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(scheduler.reports()).isNotEmpty();
            AgentReport first = scheduler.reports().get(0);
            assertThat(first.kind()).isEqualTo(ReportKind.FULL);
            assertThat(first.cluster()).isEqualTo("test-cluster");
            assertThat(first.nodePools()).extracting(NodePoolReport::name).containsExactly("slice-a", "slice-b");
        });
        NodePoolReport sliceA = scheduler.reports().get(0).nodePools().get(0);
        assertThat(sliceA.state()).isEqualTo(HealthState.HEALTHY);
        assertThat(sliceA.accelerator()).isEqualTo("tpu-v6e-slice");
        assertThat(sliceA.topology()).isEqualTo("4x4");
        assertThat(sliceA.nodes()).hasSize(4).allSatisfy(n -> assertThat(n.chipAllocatable()).isEqualTo(4));
        assertThat(scheduler.unauthorizedCalls()).isEmpty();
    }

    static Stream<Arguments> nodeFaults() {
        return Stream.of(
                Arguments.of("NotReady", (UnaryOperator<Node>) n -> new NodeBuilder(n).editStatus()
                        .editFirstCondition().withStatus("False").endCondition().endStatus().build(),
                        HealthState.UNHEALTHY, NodeHealthReason.NOT_READY),
                Arguments.of("unreachable taint", (UnaryOperator<Node>) n -> new NodeBuilder(n).editSpec()
                        .addNewTaint().withKey("node.kubernetes.io/unreachable").withEffect("NoExecute").endTaint()
                        .endSpec().build(),
                        HealthState.UNHEALTHY, NodeHealthReason.UNREACHABLE),
                Arguments.of("impending termination", (UnaryOperator<Node>) n -> new NodeBuilder(n).editSpec()
                        .addNewTaint().withKey("cloud.google.com/impending-node-termination").withEffect("NoSchedule")
                        .endTaint().endSpec().build(),
                        HealthState.UNHEALTHY, NodeHealthReason.IMPENDING_TERMINATION),
                Arguments.of("cordoned", (UnaryOperator<Node>) n -> new NodeBuilder(n).editSpec()
                        .withUnschedulable(true).endSpec().build(),
                        HealthState.UNHEALTHY, NodeHealthReason.CORDONED),
                Arguments.of("lost a chip", (UnaryOperator<Node>) n -> new NodeBuilder(n).editStatus()
                        .addToAllocatable("google.com/tpu", new Quantity("3")).endStatus().build(),
                        HealthState.UNHEALTHY, NodeHealthReason.UNHEALTHY_CHIPS),
                Arguments.of("maintenance scheduled", (UnaryOperator<Node>) n -> new NodeBuilder(n).editMetadata()
                        .addToLabels("cloud.google.com/scheduled-maintenance-time", "1767225600").endMetadata().build(),
                        HealthState.DEGRADED, NodeHealthReason.MAINTENANCE_SCHEDULED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeFaults")
    void aNodeFaultReachesTheSchedulerWithinASecond(String fault, UnaryOperator<Node> change, HealthState state,
            NodeHealthReason reason) {
        startAgent();
        await().atMost(PATIENCE).until(() -> latestPool("slice-a").isPresent());

        kube.client().nodes().withName("slice-a-2").edit(change);

        await().atMost(WITHIN_A_SECOND).untilAsserted(() -> {
            NodePoolReport pool = latestPool("slice-a").orElseThrow(AssertionError::new);
            assertThat(pool.state()).isEqualTo(state);
            assertThat(pool.reasons()).contains(reason);
            assertThat(pool.nodes()).filteredOn(n -> n.name().equals("slice-a-2"))
                    .singleElement()
                    .satisfies(n -> assertThat(n.reasons()).contains(reason));
        });
        assertThat(latestPool("slice-b").orElseThrow(AssertionError::new).state()).isEqualTo(HealthState.HEALTHY);
    }

    @Test
    void startCreatesTheJobSetPinnedToItsPoolsWithItsPriorityClass() throws Exception {
        startAgent();
        scheduler.enqueue(start(1, "wl-1", "low-jax-trillium", List.of("slice-a", "slice-b"), null));

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(scheduler.resultsOf(1)).extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED));

        GenericKubernetesResource jobSet = jobSets().withName("low-jax-trillium").get();
        assertThat(jobSet.getMetadata().getLabels())
                .containsEntry(AgentProtocol.MANAGED_LABEL, "true")
                .containsEntry(AgentProtocol.WORKLOAD_UID_LABEL, "wl-1");
        assertThat((Boolean) jobSet.get("spec", "suspend")).isFalse();
        Map<String, Object> podSpec = jobSet.get("spec", "replicatedJobs", 0, "template", "spec", "template", "spec");
        assertThat(podSpec).containsEntry("priorityClassName", "low-priority-job");
        assertThat(json.valueToTree(podSpec).path("nodeSelector").path("cloud.google.com/gke-tpu-accelerator").asString())
                .isEqualTo("tpu-v6e-slice");
        JsonNode expression = json.valueToTree(podSpec).path("affinity").path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms").path(0)
                .path("matchExpressions").path(0);
        assertThat(expression.path("key").asString()).isEqualTo(POOL_LABEL);
        assertThat(expression.path("operator").asString()).isEqualTo("In");
        assertThat(expression.path("values").values()).extracting(JsonNode::asString).containsExactly("slice-a", "slice-b");
        Map<String, String> podLabels = jobSet.get("spec", "replicatedJobs", 0, "template", "spec", "template", "metadata", "labels");
        assertThat(podLabels).containsEntry(AgentProtocol.WORKLOAD_UID_LABEL, "wl-1");
    }

    @Test
    void aRepeatedCommandIdHasOneEffect() throws Exception {
        startAgent();
        scheduler.enqueue(start(7, "wl-7", "low-jax-trillium", List.of("slice-a"), null));
        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(7).size() == 1);

        scheduler.redeliverAcknowledged();

        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(7).size() == 2);
        assertThat(scheduler.resultsOf(7)).extracting(CommandResult::status)
                .containsExactly(CommandStatus.SUCCEEDED, CommandStatus.SUCCEEDED);
        assertThat(kube.requests()).filteredOn(r -> r.startsWith("POST /apis/jobset.x-k8s.io/")).hasSize(1);
        assertThat(kube.requests()).filteredOn(r -> r.startsWith("PATCH /apis/jobset.x-k8s.io/")).isEmpty();
    }

    @Test
    void anExpiredCommandIsRefusedNotExecuted() throws Exception {
        startAgent();
        scheduler.enqueue(start(3, "wl-3", "low-jax-trillium", List.of("slice-a"), Instant.now().minusSeconds(1)));

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduler.resultsOf(3))
                .extracting(CommandResult::status).containsExactly(CommandStatus.REFUSED_EXPIRED));
        assertThat(jobSets().withName("low-jax-trillium").get()).isNull();
    }

    /**
     * The scheduler stamps each command with its own clock at delivery; an agent whose clock is five
     * minutes ahead still runs a command with two minutes left, and one five minutes behind still
     * refuses a command that had expired when it was sent.
     */
    @ParameterizedTest(name = "agent clock {0} minutes off")
    @ValueSource(ints = {5, -5})
    void aSkewedAgentClockChangesNoExpiry(int minutes) throws Exception {
        agent = new Agent(settings("agent-1"), new KubernetesCluster(kube.apiClient(), kube.apiClient(), json),
                new SoleReplica(), Clock.offset(Clock.systemUTC(), Duration.ofMinutes(minutes)));
        agent.start();
        scheduler.enqueue(start(5, "wl-5", "low-jax-trillium", List.of("slice-a"), Instant.now().plusSeconds(120)));
        scheduler.enqueue(start(6, "wl-6", "high-jax-trillium", List.of("slice-b"), Instant.now().minusSeconds(1)));

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(scheduler.resultsOf(5)).extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED);
            assertThat(scheduler.resultsOf(6)).extracting(CommandResult::status)
                    .containsExactly(CommandStatus.REFUSED_EXPIRED);
        });
        assertThat(jobSets().withName("low-jax-trillium").get()).isNotNull();
        assertThat(jobSets().withName("high-jax-trillium").get()).isNull();
    }

    @Test
    void stopSuspendsAndEvictsEveryPodRetryingThroughDisruptionBudgetRefusals() throws Exception {
        createRunningWorkload("wl-9", "training", 3);
        kube.refuseEvictions("training-1", 2);
        startAgent();
        await().atMost(PATIENCE).until(() -> latestWorkload("wl-9").filter(w -> w.podsRunning() == 3).isPresent());

        scheduler.enqueue(new AgentCommand(9, CommandType.STOP, "wl-9", "default", "training", null, null));

        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(9).stream().anyMatch(r -> r.status().isFinal()));
        List<CommandResult> results = scheduler.resultsOf(9);
        assertThat(results).extracting(CommandResult::status).containsExactly(CommandStatus.RETRYING, CommandStatus.SUCCEEDED);
        assertThat(results.get(0).eviction().blockedPods()).containsExactly("default/training-1");
        assertThat(results.get(1).eviction().podsEvicted()).isEqualTo(3);
        assertThat(results.get(1).eviction().disruptionBudgetRejections()).isEqualTo(2);
        assertThat(kube.evictionAttempts()).filteredOn("training-1"::equals).hasSize(3);
        assertThat(kube.client().pods().inNamespace("default").list().getItems()).isEmpty();
        GenericKubernetesResource jobSet = jobSets().withName("training").get();
        assertThat((Boolean) jobSet.get("spec", "suspend")).isTrue();
        await().atMost(PATIENCE).untilAsserted(() -> {
            WorkloadStatusReport status = latestWorkload("wl-9").orElseThrow(AssertionError::new);
            assertThat(status.phase()).isEqualTo(WorkloadPhase.SUSPENDED);
            assertThat(status.podsRunning()).isZero();
        });
    }

    @Test
    void aStopHeldBackByADisruptionBudgetHoldsUpOnlyTheCommandsOfItsOwnWorkload() throws Exception {
        createRunningWorkload("wl-9", "training", 3);
        kube.refuseEvictions("training-1", Integer.MAX_VALUE);
        startAgent();
        await().atMost(PATIENCE).until(() -> latestWorkload("wl-9").filter(w -> w.podsRunning() == 3).isPresent());
        scheduler.enqueue(new AgentCommand(9, CommandType.STOP, "wl-9", "default", "training", null, null));
        await().atMost(PATIENCE).until(() -> !scheduler.resultsOf(9).isEmpty());

        scheduler.enqueue(start(10, "wl-9", "training", List.of("slice-b"), null));
        scheduler.enqueue(start(11, "wl-11", "other-job", List.of("slice-a"), null));

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(scheduler.resultsOf(11)).extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED));
        assertThat(scheduler.resultsOf(9)).extracting(CommandResult::status).containsExactly(CommandStatus.RETRYING);
        assertThat(scheduler.resultsOf(10)).isEmpty();
        assertThat(jobSets().withName("other-job").get()).isNotNull();

        kube.refuseEvictions("training-1", 0);

        await().atMost(PATIENCE).until(() -> !scheduler.resultsOf(10).isEmpty());
        assertThat(scheduler.results()).filteredOn(r -> r.commandId() == 9 || r.commandId() == 10)
                .extracting(CommandResult::commandId, CommandResult::status)
                .containsExactly(tuple(9L, CommandStatus.RETRYING), tuple(9L, CommandStatus.SUCCEEDED),
                        tuple(10L, CommandStatus.SUCCEEDED));
        // the START came after the STOP's suspension, not before it
        assertThat((Boolean) jobSets().withName("training").get().get("spec", "suspend")).isFalse();
    }

    /**
     * The agent process restarted in the middle of a STOP held back by a PodDisruptionBudget, and
     * after a START whose result the scheduler never got: the new process, with nothing in memory,
     * is given both again and finishes them with one JobSet and one eviction per pod.
     */
    @Test
    void anAgentRestartedMidCommandResumesWithoutASecondJobSetOrEviction() throws Exception {
        createRunningWorkload("wl-9", "training", 3);
        kube.refuseEvictions("training-1", Integer.MAX_VALUE);
        startAgent();
        await().atMost(PATIENCE).until(() -> latestWorkload("wl-9").filter(w -> w.podsRunning() == 3).isPresent());
        scheduler.enqueue(start(8, "wl-8", "low-jax-trillium", List.of("slice-a"), null));
        scheduler.enqueue(new AgentCommand(9, CommandType.STOP, "wl-9", "default", "training", null, null));
        await().atMost(PATIENCE).until(() -> !scheduler.resultsOf(8).isEmpty() && !scheduler.resultsOf(9).isEmpty());

        agent.close();
        // the closed process's last poll must not take the redelivery meant for the new one
        await().atMost(PATIENCE).until(() -> scheduler.openPolls() == 0);
        kube.refuseEvictions("training-1", 0);
        startAgent();
        scheduler.redeliverAcknowledged();

        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(9).stream().anyMatch(r -> r.status().isFinal())
                && scheduler.resultsOf(8).size() == 2);
        assertThat(scheduler.resultsOf(8)).extracting(CommandResult::status)
                .containsExactly(CommandStatus.SUCCEEDED, CommandStatus.SUCCEEDED);
        assertThat(kube.requests()).filteredOn(r -> r.startsWith("POST /apis/jobset.x-k8s.io/")).hasSize(1);
        assertThat(kube.evictionAttempts()).filteredOn("training-0"::equals).hasSize(1);
        assertThat(kube.evictionAttempts()).filteredOn("training-2"::equals).hasSize(1);
        assertThat(kube.client().pods().inNamespace("default").list().getItems()).isEmpty();
        assertThat((Boolean) jobSets().withName("training").get().get("spec", "suspend")).isTrue();
    }

    @Test
    void aReplicaThatStopsLeadingStopsItsCommandsInProgressAndTheNextTermRunsThemAgain() throws Exception {
        createRunningWorkload("wl-9", "training", 3);
        kube.refuseEvictions("training-1", Integer.MAX_VALUE);
        HandOverLeadership leadership = new HandOverLeadership();
        agent = new Agent(settings("agent-1"), new KubernetesCluster(kube.apiClient(), kube.apiClient(), json),
                leadership, Clock.systemUTC());
        agent.start();
        await().atMost(PATIENCE).until(() -> latestWorkload("wl-9").filter(w -> w.podsRunning() == 3).isPresent());
        scheduler.enqueue(new AgentCommand(9, CommandType.STOP, "wl-9", "default", "training", null, null));
        await().atMost(PATIENCE).until(() -> !scheduler.resultsOf(9).isEmpty());

        leadership.lose();

        int attempts = kube.evictionAttempts().size();
        await().during(Duration.ofMillis(500)).atMost(PATIENCE).until(() -> kube.evictionAttempts().size() == attempts);
        assertThat(scheduler.resultsOf(9)).extracting(CommandResult::status).containsExactly(CommandStatus.RETRYING);

        kube.refuseEvictions("training-1", 0);
        leadership.gain();

        // not answered from memory with the result the interruption left: run again, to the end
        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(9).stream().anyMatch(r -> r.status().isFinal()));
        assertThat(scheduler.resultsOf(9)).last().satisfies(r -> {
            assertThat(r.status()).isEqualTo(CommandStatus.SUCCEEDED);
            assertThat(r.eviction().podsEvicted()).as("the pod the first term could not evict").isEqualTo(1);
        });
        assertThat(kube.client().pods().inNamespace("default").list().getItems()).isEmpty();
    }

    /** Leadership handed over by the test: gained at start, then lost and gained on demand. */
    private static final class HandOverLeadership implements Leadership {

        private volatile boolean leader;
        private Runnable onStarted = () -> { };
        private Runnable onStopped = () -> { };

        @Override
        public void start(Runnable onStartedLeading, Runnable onStoppedLeading) {
            onStarted = onStartedLeading;
            onStopped = onStoppedLeading;
            gain();
        }

        void gain() {
            leader = true;
            onStarted.run();
        }

        void lose() {
            leader = false;
            onStopped.run();
        }

        @Override
        public boolean isLeader() {
            return leader;
        }

        @Override
        public void close() {
            if (leader) {
                lose();
            }
        }
    }

    @Test
    void restartEvictsTheOldPodsThenRepinsTheJobSetToTheNewPoolsOnly() throws Exception {
        createRunningWorkload("wl-4", "low-jax-trillium", 4);
        startAgent();
        await().atMost(PATIENCE).until(() -> latestWorkload("wl-4").filter(w -> w.podsRunning() == 4).isPresent());

        scheduler.enqueue(new AgentCommand(4, CommandType.RESTART, "wl-4", "default", "low-jax-trillium", null,
                start(4, "wl-4", "low-jax-trillium", List.of("slice-b"), null).payload()));

        await().atMost(PATIENCE).untilAsserted(() ->
                assertThat(scheduler.resultsOf(4)).extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED));
        assertThat(scheduler.resultsOf(4).get(0).eviction().podsEvicted()).isEqualTo(4);
        assertThat(kube.client().pods().inNamespace("default").list().getItems()).isEmpty();
        GenericKubernetesResource jobSet = jobSets().withName("low-jax-trillium").get();
        assertThat((Boolean) jobSet.get("spec", "suspend")).isFalse();
        List<Map<String, Object>> replicatedJobs = jobSet.get("spec", "replicatedJobs");
        assertThat(replicatedJobs).hasSize(1);
        JsonNode poolExpression = json.valueToTree(replicatedJobs.get(0)).at("/template/spec/template/spec/affinity/nodeAffinity"
                + "/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchExpressions/0");
        assertThat(poolExpression.path("values").values()).extracting(JsonNode::asString).containsExactly("slice-b");
    }

    @Test
    void reportsPodsOfAWorkloadWithTheirNodesAndPools() throws Exception {
        createRunningWorkload("wl-5", "five", 2);
        startAgent();

        await().atMost(PATIENCE).untilAsserted(() -> {
            WorkloadStatusReport status = latestWorkload("wl-5").orElseThrow(AssertionError::new);
            assertThat(status.jobSetName()).isEqualTo("five");
            assertThat(status.phase()).isEqualTo(WorkloadPhase.RUNNING);
            assertThat(status.podsRunning()).isEqualTo(2);
            assertThat(status.nodes()).containsExactly("slice-a-0", "slice-a-1");
            assertThat(status.nodePools()).containsExactly("slice-a");
        });

        kube.client().pods().inNamespace("default").withName("five-0")
                .edit(p -> new PodBuilder(p).editStatus().withPhase("Succeeded").endStatus().build());

        await().atMost(WITHIN_A_SECOND).untilAsserted(() -> {
            WorkloadStatusReport status = latestWorkload("wl-5").orElseThrow(AssertionError::new);
            assertThat(status.podsSucceeded()).isEqualTo(1);
            assertThat(status.podsRunning()).isEqualTo(1);
        });
    }

    /**
     * A training job records its checkpoints on its JobSet in the cluster; the agent reports the time to the
     * scheduler, and a value that is no time is left out rather than failing the report.
     */
    @Test
    void theLastCheckpointAnnotatedOnAJobSetInTheClusterReachesTheScheduler() throws Exception {
        createRunningWorkload("wl-7", "seven", 1);
        startAgent();
        await().atMost(PATIENCE).until(() -> latestWorkload("wl-7").isPresent());
        assertThat(latestWorkload("wl-7").orElseThrow().lastCheckpoint()).isNull();

        annotateJobSet("seven", "2026-01-01T12:00:00+02:00");

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(latestWorkload("wl-7").orElseThrow().lastCheckpoint())
                .isEqualTo(Instant.parse("2026-01-01T10:00:00Z")));

        annotateJobSet("seven", "after the second epoch");

        await().atMost(PATIENCE).untilAsserted(() -> {
            WorkloadStatusReport status = latestWorkload("wl-7").orElseThrow();
            assertThat(status.lastCheckpoint()).isNull();
            assertThat(status.phase()).isEqualTo(WorkloadPhase.RUNNING);
        });
    }

    private void annotateJobSet(String name, String lastCheckpoint) {
        jobSets().withName(name).edit(j -> {
            j.getMetadata().setAnnotations(Map.of(PreemptionAnnotations.LAST_CHECKPOINT, lastCheckpoint));
            return j;
        });
    }

    @Test
    void aSuspendedJobSetWithAQueueLabelIsReportedAsASubmission() throws Exception {
        GenericKubernetesResource submitted = jobSetResource("user-job", Map.of(AgentProtocol.QUEUE_NAME_LABEL, "default-queue"), true);
        jobSets().resource(submitted).create();
        GenericKubernetesResource unqueued = jobSetResource("not-queued", Map.of(), true);
        jobSets().resource(unqueued).create();
        startAgent();

        await().atMost(PATIENCE).untilAsserted(() -> assertThat(scheduler.reports().stream()
                .flatMap(r -> r.submissions().stream()))
                .anySatisfy(s -> {
                    assertThat(s.name()).isEqualTo("user-job");
                    assertThat(s.queueName()).isEqualTo("default-queue");
                    assertThat(s.jobSetUid()).isNotBlank();
                    assertThat(s.manifest().path("spec").path("replicatedJobs").path(0).path("name").asString()).isEqualTo("slice");
                }));
        assertThat(scheduler.reports().stream().flatMap(r -> r.submissions().stream()))
                .noneMatch(s -> s.name().equals("not-queued"));
    }

    @Test
    void whileTheSchedulerIsDownTheAgentBacksOffThenCatchesUpActingOnNoStaleCommand() throws Exception {
        scheduler.setAvailable(false);
        startAgent();
        await().atMost(PATIENCE).until(() -> scheduler.refusedCalls().size() >= 6);

        kube.client().nodes().withName("slice-b-0").edit(n -> new NodeBuilder(n).editSpec().withUnschedulable(true).endSpec().build());
        Instant staleAt = Instant.now().plusMillis(300);
        scheduler.enqueue(start(20, "wl-20", "stale-job", List.of("slice-a"), staleAt));
        scheduler.enqueue(start(21, "wl-21", "fresh-job", List.of("slice-a"), Instant.now().plusSeconds(60)));
        await().atMost(PATIENCE).until(() -> Instant.now().isAfter(staleAt) && scheduler.refusedCalls().size() >= 10);
        assertThat(scheduler.reports()).isEmpty();
        scheduler.setAvailable(true);

        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(scheduler.resultsOf(20)).extracting(CommandResult::status).containsExactly(CommandStatus.REFUSED_EXPIRED);
            assertThat(scheduler.resultsOf(21)).extracting(CommandResult::status).containsExactly(CommandStatus.SUCCEEDED);
            NodePoolReport sliceB = latestPool("slice-b").orElseThrow(AssertionError::new);
            assertThat(sliceB.reasons()).contains(NodeHealthReason.CORDONED);
        });
        assertThat(scheduler.reports().get(0).kind()).isEqualTo(ReportKind.FULL);
        assertThat(jobSets().withName("stale-job").get()).isNull();
        assertThat(jobSets().withName("fresh-job").get()).isNotNull();
    }

    @Test
    void ofTwoReplicasOnlyTheLeaseHolderReportsAndExecutesAndTheOtherTakesOverWhenItCloses() throws Exception {
        Agent a = startReplica("agent-a");
        Agent b = startReplica("agent-b");
        await().atMost(PATIENCE).until(() -> a.isLeader() != b.isLeader());
        Agent leading = a.isLeader() ? a : b;
        Agent following = a.isLeader() ? b : a;
        String leader = leading == a ? "agent-a" : "agent-b";
        String follower = leading == a ? "agent-b" : "agent-a";

        scheduler.enqueue(start(1, "wl-1", "first-job", List.of("slice-a"), null));
        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(1).stream().anyMatch(r -> r.status().isFinal()));
        // both replicas watch the cordon; only the leader tells the scheduler
        kube.client().nodes().withName("slice-b-0").edit(n -> new NodeBuilder(n).editSpec().withUnschedulable(true).endSpec().build());
        await().atMost(PATIENCE).until(() -> latestPool("slice-b").filter(p -> p.reasons().contains(NodeHealthReason.CORDONED)).isPresent());
        assertThat(scheduler.reports()).allSatisfy(r -> assertThat(r.agentId()).isEqualTo(leader));
        assertThat(scheduler.reports().get(0).kind()).isEqualTo(ReportKind.FULL);
        assertThat(scheduler.resultsOf(1)).extracting(CommandResult::agentId, CommandResult::status)
                .containsExactly(tuple(leader, CommandStatus.SUCCEEDED));

        leading.close();
        replicas.remove(leading);
        int firstTermReports = scheduler.reports().size();

        await().atMost(PATIENCE).until(following::isLeader);
        await().atMost(PATIENCE).until(() -> scheduler.reports().size() > firstTermReports);
        List<AgentReport> secondTerm = scheduler.reports().subList(firstTermReports, scheduler.reports().size());
        assertThat(secondTerm).allSatisfy(r -> assertThat(r.agentId()).isEqualTo(follower));
        // the follower's caches were warm: its first report as leader is FULL and knows the cordon
        assertThat(secondTerm.get(0).kind()).isEqualTo(ReportKind.FULL);
        assertThat(secondTerm.get(0).nodePools()).filteredOn(p -> p.name().equals("slice-b")).singleElement()
                .satisfies(p -> assertThat(p.reasons()).contains(NodeHealthReason.CORDONED));
        scheduler.enqueue(start(2, "wl-2", "second-job", List.of("slice-a"), null));
        await().atMost(PATIENCE).until(() -> scheduler.resultsOf(2).stream().anyMatch(r -> r.status().isFinal()));
        assertThat(scheduler.resultsOf(2)).extracting(CommandResult::agentId, CommandResult::status)
                .containsExactly(tuple(follower, CommandStatus.SUCCEEDED));
        // the new leader resumed after the acknowledged command instead of running it again
        assertThat(scheduler.resultsOf(1)).hasSize(1);
        assertThat(jobSets().withName("second-job").get()).isNotNull();
    }

    private Optional<NodePoolReport> latestPool(String pool) {
        List<AgentReport> reports = new ArrayList<>(scheduler.reports());
        for (int i = reports.size() - 1; i >= 0; i--) {
            Optional<NodePoolReport> found = reports.get(i).nodePools().stream().filter(p -> p.name().equals(pool)).findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private Optional<WorkloadStatusReport> latestWorkload(String uid) {
        List<AgentReport> reports = new ArrayList<>(scheduler.reports());
        for (int i = reports.size() - 1; i >= 0; i--) {
            Optional<WorkloadStatusReport> found = reports.get(i).workloads().stream()
                    .filter(w -> w.workloadUid().equals(uid)).findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private NonNamespaceOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> jobSets() {
        return kube.client().genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace("default");
    }

    private AgentCommand start(long id, String workloadUid, String name, List<String> pools, Instant expiresAt) throws Exception {
        return new AgentCommand(id, CommandType.START, workloadUid, "default", name, expiresAt,
                new CommandPayload(seedJobSet("low-jax-trillium"), "low-priority-job", pools,
                        Map.of("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"), "tpu-v6e-slice"));
    }

    @SuppressWarnings("unchecked")
    private JsonNode seedJobSet(String name) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/seed-manifests/seed-kueue-and-hotswap.yaml")) {
            for (Object document : new Yaml().loadAll(in)) {
                Map<String, Object> manifest = (Map<String, Object>) document;
                Map<String, Object> metadata = (Map<String, Object>) manifest.get("metadata");
                if ("JobSet".equals(manifest.get("kind")) && name.equals(metadata.get("name"))) {
                    return json.valueToTree(manifest);
                }
            }
        }
        throw new IllegalArgumentException("no JobSet " + name + " in the seed");
    }

    private GenericKubernetesResource jobSetResource(String name, Map<String, String> labels, boolean suspended) throws Exception {
        JsonNode manifest = seedJobSet("low-jax-trillium");
        ((tools.jackson.databind.node.ObjectNode) manifest.path("metadata")).put("name", name).put("namespace", "default");
        ((tools.jackson.databind.node.ObjectNode) manifest.path("metadata")).set("labels", json.valueToTree(labels));
        ((tools.jackson.databind.node.ObjectNode) manifest.path("metadata")).remove("annotations");
        ((tools.jackson.databind.node.ObjectNode) manifest.path("spec")).put("suspend", suspended);
        return kube.client().getKubernetesSerialization().unmarshal(json.writeValueAsString(manifest), GenericKubernetesResource.class);
    }

    private void createRunningWorkload(String uid, String name, int pods) throws Exception {
        GenericKubernetesResource jobSet = jobSetResource(name,
                Map.of(AgentProtocol.MANAGED_LABEL, "true", AgentProtocol.WORKLOAD_UID_LABEL, uid), false);
        jobSets().resource(jobSet).create();
        for (int i = 0; i < pods; i++) {
            Pod pod = new PodBuilder()
                    .withNewMetadata().withName(name + "-" + i).withNamespace("default")
                    .addToLabels(AgentProtocol.MANAGED_LABEL, "true").addToLabels(AgentProtocol.WORKLOAD_UID_LABEL, uid)
                    .endMetadata()
                    .withNewSpec().withNodeName("slice-a-" + i).addNewContainer().withName("main").withImage("jax").endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus()
                    .build();
            kube.client().pods().inNamespace("default").resource(pod).create();
        }
    }

    private void createNode(Node node) {
        kube.client().nodes().resource(node).create();
    }

    private static Node tpuNode(String name, String pool) {
        return new NodeBuilder()
                .withNewMetadata().withName(name)
                .addToLabels(POOL_LABEL, pool)
                .addToLabels("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice")
                .addToLabels("cloud.google.com/gke-tpu-topology", "4x4")
                .endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus()
                .addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addToCapacity("google.com/tpu", new Quantity("4"))
                .addToAllocatable("google.com/tpu", new Quantity("4"))
                .endStatus()
                .build();
    }
}
