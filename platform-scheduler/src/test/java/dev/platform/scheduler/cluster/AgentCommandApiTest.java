package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.EvictionProgress;
import dev.platform.api.agent.HealthState;
import dev.platform.scheduler.testsupport.PlatformClient.Response;
import dev.platform.scheduler.testsupport.PlatformApplicationTest;
import dev.platform.scheduler.testsupport.TestIdentity;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.event.ApplicationEvents;
import org.springframework.test.context.event.RecordApplicationEvents;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.LongStream;

import static dev.platform.scheduler.cluster.AgentCalls.full;
import static dev.platform.scheduler.cluster.AgentCalls.tpuPool;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** The command outbox: enqueue in a transaction, long poll, results, {@code after} semantics (and its absence). */
@RecordApplicationEvents
class AgentCommandApiTest extends PlatformApplicationTest {

    static final UUID WORKLOAD = UUID.fromString("9c1e0000-0000-4000-8000-000000000001");

    @Autowired
    AgentCommandStore commands;

    @Autowired
    AgentCommandService service;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    ApplicationEvents events;

    AgentCalls agent;

    @BeforeEach
    void setUp() {
        agent = new AgentCalls(port);
        agent.report("prod-1", full("prod-1", "agent-a", 1, List.of(tpuPool("tpu-0", 2, HealthState.HEALTHY)),
                List.of()));
    }

    @Test
    void aQueuedCommandIsDeliveredAsTheProtocolSays() {
        Instant expiry = Instant.now().plus(5, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
        long id = enqueue(CommandType.START, start(), expiry);

        Response response = agent.poll("prod-1", "waitSeconds=0");

        assertThat(response.status()).isEqualTo(200);
        JsonNode command = response.json().get(0);
        assertThat(response.json()).hasSize(1);
        assertThat(command.get("id").asLong()).isEqualTo(id);
        assertThat(command.get("type").asString()).isEqualTo("START");
        assertThat(command.get("workloadUid").asString()).isEqualTo(WORKLOAD.toString());
        assertThat(command.get("namespace").asString()).isEqualTo("team-a");
        assertThat(command.get("name").asString()).isEqualTo("train");
        assertThat(Instant.parse(command.get("expiresAt").asString())).isEqualTo(expiry);
        assertThat(command.at("/payload/manifest/kind").asString()).isEqualTo("JobSet");
        assertThat(command.at("/payload/nodePools/0").asString()).isEqualTo("tpu-0");
        assertThat(command.at("/payload/nodeLabels/cloud.google.com~1gke-tpu-accelerator").asString())
                .isEqualTo("tpu-v6e-slice");
        assertThat(command.at("/payload/priorityClassName").asString()).isEqualTo("high");
        assertThat(jdbc.sql("SELECT state || ':' || attempts FROM agent_command WHERE seq = ?").param(id)
                .query(String.class).single()).isEqualTo("Delivered:1");
    }

    @Test
    void stopAndDeleteCarryNoPayloadAndMayNotExpire() {
        enqueue(CommandType.STOP, null, null);

        JsonNode command = agent.poll("prod-1", "waitSeconds=0").json().get(0);

        assertThat(command.get("type").asString()).isEqualTo("STOP");
        assertThat(command.get("payload").isNull()).isTrue();
        assertThat(command.get("expiresAt").isNull()).isTrue();
    }

    @Test
    void aHeldPollIsAnsweredWhenACommandIsQueued() {
        CompletableFuture<Response> poll = agent.pollAsync("prod-1", "waitSeconds=30");

        long id = enqueue(CommandType.START, start(), null);

        // answered long before the 30 s the poll may wait
        Response response = await().atMost(Duration.ofSeconds(10)).until(poll::join, r -> true);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json()).extracting(c -> c.get("id").asLong()).containsExactly(id);
    }

    @Test
    void aHeldPollWithNothingToDeliverAnswersAnEmptyArray() {
        Response response = agent.poll("prod-1", "waitSeconds=1");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().isArray()).isTrue();
        assertThat(response.json()).isEmpty();
    }

    @Test
    void resultsAcknowledgeAndAPollWithoutAfterDeliversWhatHasNoFinalResult() {
        long first = enqueue(CommandType.STOP, null, null);
        long second = enqueue(CommandType.DELETE, null, null);
        agent.poll("prod-1", "waitSeconds=0");

        Response progress = agent.result("prod-1", new CommandResult(first, CommandStatus.RETRYING,
                "evictions blocked by a PodDisruptionBudget", new EvictionProgress(2, 1, List.of("team-a/p-3")),
                "agent-a", Instant.now()));
        assertThat(progress.status()).isEqualTo(204);
        assertThat(stateOf(first)).isEqualTo("Delivered");
        assertThat(jdbc.sql("SELECT result_message FROM agent_command WHERE seq = ?").param(first)
                .query(String.class).single()).contains("PodDisruptionBudget").contains("team-a/p-3");
        assertThat(ids(agent.poll("prod-1", "waitSeconds=0"))).containsExactly(first, second);

        assertThat(agent.result("prod-1", new CommandResult(first, CommandStatus.SUCCEEDED, "JobSet suspended",
                null, "agent-a", Instant.now())).status()).isEqualTo(204);

        assertThat(stateOf(first)).isEqualTo("Succeeded");
        assertThat(jdbc.sql("SELECT acked_at IS NOT NULL FROM agent_command WHERE seq = ?").param(first)
                .query(Boolean.class).single()).isTrue();
        assertThat(api.get("/api/v1/clusters/prod-1").json().get("lastAcknowledgedCommand").asLong())
                .isEqualTo(first);
        assertThat(ids(agent.poll("prod-1", "waitSeconds=0"))).containsExactly(second);
        assertThat(ids(agent.poll("prod-1", "after=0&waitSeconds=0"))).containsExactly(first, second);
        assertThat(ids(agent.poll("prod-1", "after=" + second + "&waitSeconds=0"))).isEmpty();

        agent.result("prod-1", new CommandResult(second, CommandStatus.REFUSED_EXPIRED, "expired", null, "agent-a",
                Instant.now()));
        assertThat(stateOf(second)).isEqualTo("Refused");
        assertThat(ids(agent.poll("prod-1", "waitSeconds=0"))).isEmpty();
    }

    @Test
    void aPollWithoutAfterStillDeliversALowerCommandWhenAHigherOneIsFinal() {
        long stuck = enqueue(CommandType.STOP, null, null);
        long done = enqueue(CommandType.DELETE, null, null);
        long queued = enqueue(CommandType.STOP, null, null);
        agent.poll("prod-1", "waitSeconds=0");

        // the agent runs workloads' commands concurrently: a later one may finish first
        agent.result("prod-1", new CommandResult(done, CommandStatus.SUCCEEDED, "JobSet deleted", null, "agent-a",
                Instant.now()));

        assertThat(api.get("/api/v1/clusters/prod-1").json().get("lastAcknowledgedCommand").asLong())
                .isEqualTo(done);
        assertThat(ids(agent.poll("prod-1", "waitSeconds=0"))).containsExactly(stuck, queued);
        assertThat(ids(agent.poll("prod-1", "after=" + done + "&waitSeconds=0"))).containsExactly(queued);
    }

    @Test
    void aFinalResultIsPublishedOnceAndARepeatedOneChangesNothing() {
        long id = enqueue(CommandType.RESTART, start(), null);
        CommandResult failed = new CommandResult(id, CommandStatus.FAILED, "pods still blocked", null, "agent-a",
                Instant.now());

        service.recordResult("prod-1", id, failed);
        service.recordResult("prod-1", id, new CommandResult(id, CommandStatus.SUCCEEDED, "late", null, "agent-a",
                Instant.now()));

        assertThat(stateOf(id)).isEqualTo("Failed");
        assertThat(events.stream(AgentCommandCompleted.class)).singleElement().satisfies(e -> {
            assertThat(e.cluster()).isEqualTo("prod-1");
            assertThat(e.id()).isEqualTo(id);
            assertThat(e.type()).isEqualTo(CommandType.RESTART);
            assertThat(e.workloadUid()).isEqualTo(WORKLOAD);
            assertThat(e.status()).isEqualTo(CommandStatus.FAILED);
            assertThat(e.message()).isEqualTo("pods still blocked");
        });
    }

    @Test
    void aResultForAnUnknownCommandIs404AndForAnotherIdIs400() {
        long id = enqueue(CommandType.STOP, null, null);

        Response unknown = agent.result("prod-1", new CommandResult(id + 100, CommandStatus.SUCCEEDED, "", null,
                "agent-a", Instant.now()));
        Response otherCluster = agent.result("prod-2", new CommandResult(id, CommandStatus.SUCCEEDED, "", null,
                "agent-a", Instant.now()));

        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.contentType()).startsWith("application/problem+json");
        assertThat(otherCluster.status()).isEqualTo(404);
        assertThat(stateOf(id)).isEqualTo("Pending");
    }

    @Test
    void aBatchOfResultsIsRecordedAsOneAndTheSameBatchPostedAgainChangesNothing() {
        long stop = enqueue(CommandType.STOP, null, null);
        long restart = enqueue(CommandType.RESTART, start(), null);
        long delete = enqueue(CommandType.DELETE, null, null);
        List<CommandResult> batch = List.of(
                result(stop, CommandStatus.RETRYING, "evictions blocked by a PodDisruptionBudget"),
                result(restart, CommandStatus.FAILED, "old pods still present"),
                result(stop, CommandStatus.SUCCEEDED, "JobSet suspended"),
                result(delete, CommandStatus.REFUSED_EXPIRED, "expired"));

        service.recordResults("prod-1", batch);
        Map<Long, String> recorded = rows(stop, restart, delete);
        List<Instant> acknowledged = ackedAt(stop, restart, delete);
        service.recordResults("prod-1", batch);

        assertThat(recorded).containsExactly(Map.entry(stop, "Succeeded:JobSet suspended"),
                Map.entry(restart, "Failed:old pods still present"), Map.entry(delete, "Refused:expired"));
        assertThat(rows(stop, restart, delete)).isEqualTo(recorded);
        assertThat(ackedAt(stop, restart, delete)).isEqualTo(acknowledged).doesNotContainNull();
        assertThat(events.stream(AgentCommandCompleted.class)).extracting(AgentCommandCompleted::id,
                AgentCommandCompleted::status).containsExactly(tuple(stop, CommandStatus.SUCCEEDED),
                tuple(restart, CommandStatus.FAILED), tuple(delete, CommandStatus.REFUSED_EXPIRED));
        assertThat(ids(agent.poll("prod-1", "waitSeconds=0"))).isEmpty();
    }

    @Test
    void overlappingBatchesKeepEachCommandsFirstFinalResult() {
        long first = enqueue(CommandType.STOP, null, null);
        long second = enqueue(CommandType.STOP, null, null);
        long third = enqueue(CommandType.STOP, null, null);

        Response earlier = agent.results("prod-1", List.of(result(first, CommandStatus.SUCCEEDED, "first"),
                result(second, CommandStatus.FAILED, "blocked")));
        Response overlapping = agent.results("prod-1", List.of(result(second, CommandStatus.SUCCEEDED, "late"),
                result(third, CommandStatus.RETRYING, "retrying"), result(first, CommandStatus.FAILED, "late")));

        assertThat(earlier.status()).isEqualTo(204);
        assertThat(overlapping.status()).isEqualTo(204);
        assertThat(rows(first, second, third)).containsExactly(Map.entry(first, "Succeeded:first"),
                Map.entry(second, "Failed:blocked"), Map.entry(third, "Pending:retrying"));
        assertThat(ids(agent.poll("prod-1", "waitSeconds=0"))).containsExactly(third);
    }

    @Test
    void resultsOfOneWorkloadArePublishedInCommandOrderInOneBatchAndAcrossBatches() {
        long start = enqueue(CommandType.START, start(), null);
        long stop = enqueue(CommandType.STOP, null, null);
        long restart = enqueue(CommandType.RESTART, start(), null);
        long delete = enqueue(CommandType.DELETE, null, null);

        service.recordResults("prod-1", List.of(result(stop, CommandStatus.SUCCEEDED, "suspended"),
                result(start, CommandStatus.SUCCEEDED, "created")));
        service.recordResults("prod-1", List.of(result(restart, CommandStatus.SUCCEEDED, "restarted")));
        service.recordResults("prod-1", List.of(result(delete, CommandStatus.SUCCEEDED, "deleted")));

        assertThat(events.stream(AgentCommandCompleted.class)).extracting(AgentCommandCompleted::id)
                .containsExactly(start, stop, restart, delete);
    }

    @Test
    void aBatchWithAnotherClustersCommandIsRefusedWholeAndRecordsNothing() {
        agent.connectTwoClusters();
        long mine = enqueue(CommandType.STOP, null, null);
        long theirs = transactions.execute(tx -> commands.enqueue("prod-2", CommandType.STOP, WORKLOAD, "team-a",
                "train", null, null));

        Response refused = agent.results("prod-1", List.of(result(mine, CommandStatus.SUCCEEDED, "mine"),
                result(theirs, CommandStatus.SUCCEEDED, "theirs")));
        Response otherToken = agent.resultsWithToken("prod-2", TestIdentity.agentToken("prod-1"), List.of(result(theirs, CommandStatus.SUCCEEDED, "theirs")));

        assertThat(refused.status()).isEqualTo(404);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        assertThat(refused.json().get("detail").asString()).contains("prod-1/" + theirs);
        assertThat(otherToken.status()).isEqualTo(403);
        assertThat(stateOf(mine)).isEqualTo("Pending");
        assertThat(stateOf(theirs)).isEqualTo("Pending");
    }

    @Test
    void aBatchOverTheLimitIs413AndOneWithoutAStatusIs400AndNeitherRecordsAnything() {
        long id = enqueue(CommandType.STOP, null, null);
        List<CommandResult> tooMany = LongStream.rangeClosed(0, AgentProtocol.MAX_RESULTS_PER_BATCH)
                .mapToObj(i -> result(id, CommandStatus.SUCCEEDED, "done")).toList();

        Response tooLarge = agent.results("prod-1", tooMany);
        Response noStatus = agent.results("prod-1", List.of(result(id, CommandStatus.SUCCEEDED, "done"),
                result(id, null, "no status")));

        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.contentType()).startsWith("application/problem+json");
        assertThat(tooLarge.json().get("detail").asString()).contains("at most " + AgentProtocol.MAX_RESULTS_PER_BATCH);
        assertThat(noStatus.status()).isEqualTo(400);
        assertThat(noStatus.json().get("detail").asString()).contains("results[1].status");
        assertThat(stateOf(id)).isEqualTo("Pending");
    }

    private static CommandResult result(long id, CommandStatus status, String message) {
        return new CommandResult(id, status, message, null, "agent-a", Instant.now());
    }

    /** state:result_message per command, in the order given. */
    private Map<Long, String> rows(long... ids) {
        Map<Long, String> rows = new LinkedHashMap<>();
        for (long id : ids) {
            rows.put(id, jdbc.sql("SELECT state || ':' || coalesce(result_message, '') FROM agent_command WHERE seq = ?")
                    .param(id).query(String.class).single());
        }
        return rows;
    }

    private List<Instant> ackedAt(long... ids) {
        return LongStream.of(ids).mapToObj(id -> jdbc.sql("SELECT acked_at FROM agent_command WHERE seq = ?").param(id)
                .query((rs, i) -> rs.getTimestamp(1) == null ? null : rs.getTimestamp(1).toInstant()).single()).toList();
    }

    @Test
    void commandsAreOnlyForConnectedClustersAndLiveAndDieWithTheCallersTransaction() {
        assertThatThrownBy(() -> enqueueFor("nowhere"))
                .isInstanceOf(AgentCommandStore.UnknownClusterException.class);

        transactions.executeWithoutResult(tx -> {
            commands.enqueue("prod-1", CommandType.STOP, WORKLOAD, "team-a", "train", null, null);
            tx.setRollbackOnly();
        });

        assertThat(jdbc.sql("SELECT count(*) FROM agent_command").query(Long.class).single()).isZero();
    }

    private long enqueue(CommandType type, CommandPayload payload, Instant expiresAt) {
        return transactions.execute(tx -> commands.enqueue("prod-1", type, WORKLOAD, "team-a", "train", payload,
                expiresAt));
    }

    private void enqueueFor(String cluster) {
        transactions.executeWithoutResult(tx -> commands.enqueue(cluster, CommandType.STOP, WORKLOAD, "team-a",
                "train", null, null));
    }

    private static CommandPayload start() {
        return new CommandPayload(AgentCalls.JSON.readTree("""
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "metadata": {"name": "train"}}"""),
                "high", List.of("tpu-0"), Map.of("cloud.google.com/gke-tpu-accelerator", "tpu-v6e-slice"),
                "tpu-v6e-slice");
    }

    private String stateOf(long id) {
        return jdbc.sql("SELECT state FROM agent_command WHERE seq = ?").param(id).query(String.class).single();
    }

    private static List<Long> ids(Response response) {
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json().valueStream().map(c -> c.get("id").asLong()).toList();
    }
}
