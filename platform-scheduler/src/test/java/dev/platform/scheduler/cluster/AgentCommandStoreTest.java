package dev.platform.scheduler.cluster;

import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.CommandPayload;
import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.scheduler.workload.WorkloadTransitions.Admitting;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.admission;
import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The agent command outbox: delivery with and without {@code after} (a delivery counts an attempt), the
 * last acknowledged id that never goes back, a reissue only while the command is still its workload's
 * latest and the workload still there, and the DELETE that follows a workload's JobSet to another cluster.
 */
@StoreSliceTest
class AgentCommandStoreTest {

    private static final UUID WORKLOAD = UUID.fromString("9c1e0000-0000-4000-8000-000000000002");

    @Autowired
    AgentCommandStore commands;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    JsonMapper json;

    /** Later than the database's own now(), whatever the slice's clock says: a command's expiry follows its creation. */
    private final Instant expiry = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);

    @BeforeEach
    void twoConnectedClusters() {
        jdbc.sql("INSERT INTO cluster (name) VALUES ('prod-1'), ('prod-2')").update();
    }

    private long stop(String cluster, UUID workload) {
        return commands.enqueue(cluster, CommandType.STOP, workload, "team-a", "train", null, null);
    }

    private static List<Long> ids(List<AgentCommand> delivered) {
        return delivered.stream().map(AgentCommand::id).toList();
    }

    private String stateAndAttempts(long id) {
        return jdbc.sql("SELECT state || ':' || attempts FROM agent_command WHERE seq = ?").param(id)
                .query(String.class).single();
    }

    @Test
    void aClusterThatNeverReportedGetsNoCommand() {
        assertThatThrownBy(() -> stop("nowhere", WORKLOAD)).isInstanceOf(AgentCommandStore.UnknownClusterException.class);
    }

    @Test
    void deliveryWithoutAfterIsWhatHasNoFinalResultAndCountsEveryAttempt() {
        long first = stop("prod-1", WORKLOAD);
        long second = commands.enqueue("prod-1", CommandType.DELETE, WORKLOAD, "team-a", "train", null, expiry);
        long third = stop("prod-1", WORKLOAD);
        stop("prod-2", WORKLOAD);

        assertThat(ids(commands.deliver("prod-1", null))).containsExactly(first, second, third);
        commands.recordFinal(List.of(new AgentCommandStore.FinalResult(second, CommandStatus.SUCCEEDED, "deleted")),
                StoreSliceTest.NOW);

        assertThat(ids(commands.deliver("prod-1", null))).containsExactly(first, third);
        assertThat(ids(commands.deliver("prod-1", first))).containsExactly(second, third);
        assertThat(stateAndAttempts(first)).isEqualTo("Delivered:2");
        assertThat(stateAndAttempts(second)).as("a final state stays final").isEqualTo("Succeeded:2");
        assertThat(stateAndAttempts(third)).isEqualTo("Delivered:3");
        assertThat(commands.deliver("prod-1", null).get(0).expiresAt()).isNull();
        assertThat(commands.deliver("prod-1", first).get(0).expiresAt()).isEqualTo(expiry);
    }

    @Test
    void theLastAcknowledgedIdNeverGoesBack() {
        long lower = stop("prod-1", WORKLOAD);
        long higher = stop("prod-1", WORKLOAD);

        commands.recordFinal(List.of(new AgentCommandStore.FinalResult(higher, CommandStatus.SUCCEEDED, "done")),
                StoreSliceTest.NOW);
        commands.recordFinal(List.of(new AgentCommandStore.FinalResult(lower, CommandStatus.REFUSED_EXPIRED, "expired")),
                StoreSliceTest.NOW);

        assertThat(jdbc.sql("SELECT max(seq) FROM agent_command WHERE cluster = 'prod-1'"
                + " AND state IN ('Succeeded', 'Failed', 'Refused')").query(Long.class).single())
                .isEqualTo(higher);
        assertThat(stateAndAttempts(lower)).isEqualTo("Refused:0");
        assertThat(commands.lock("prod-1", List.of(lower))).singleElement().satisfies(c -> assertThat(c.isFinal()).isTrue());
        assertThat(commands.lock("prod-2", List.of(lower))).as("another cluster's id").isEmpty();
    }

    @Test
    void aCommandIsReissuedOnlyWhileItIsItsWorkloadsLatestAndTheWorkloadIsAdmittedThere() {
        UUID uid = admittedIn("prod-1");
        long start = commands.enqueue("prod-1", CommandType.START, uid, "team-a", "train", null, expiry);

        long reissued = commands.reissueWhileCurrent(start, expiry.plusSeconds(60)).orElseThrow();

        assertThat(reissued).isGreaterThan(start);
        assertThat(jdbc.sql("SELECT type || '@' || cluster FROM agent_command WHERE seq = ?").param(reissued)
                .query(String.class).single()).isEqualTo("START@prod-1");
        assertThat(commands.reissueWhileCurrent(start, expiry.plusSeconds(60))).as("no longer the latest").isEmpty();
        transitions.cancel(uid, StoreSliceTest.NOW, "alice");
        assertThat(commands.reissueWhileCurrent(reissued, expiry.plusSeconds(60))).as("no longer admitted").isEmpty();
    }

    @Test
    void aJobSetStartedElsewhereIsDeletedWhereItsLastCommandSentIt() {
        UUID moved = UUID.randomUUID();
        UUID stays = UUID.randomUUID();
        UUID deleted = UUID.randomUUID();
        commands.enqueue("prod-1", CommandType.START, moved, "team-a", "moved", null, expiry);
        commands.enqueue("prod-2", CommandType.START, stays, "team-a", "stays", null, expiry);
        commands.enqueue("prod-1", CommandType.DELETE, deleted, "team-a", "deleted", null, null);

        commands.deleteElsewhere(Map.of(moved, "prod-2", stays, "prod-2", deleted, "prod-2", UUID.randomUUID(), "prod-2"));

        assertThat(jdbc.sql("SELECT type || ' ' || name || '@' || cluster FROM agent_command ORDER BY seq")
                .query(String.class).list())
                .containsExactly("START moved@prod-1", "START stays@prod-2", "DELETE deleted@prod-1",
                        "DELETE moved@prod-1");
        assertThat(commands.lastCluster(moved)).as("its JobSet was deleted there").isEmpty();
        assertThat(commands.lastCluster(stays)).contains("prod-2");
    }

    @Test
    void startsAreQueuedInTheirOrderAndDeliveredEachWithItsWorkloadsStoredManifest() {
        UUID first = submit(transitions, "team-a", "first", "lq", "cq", 0, StoreSliceTest.NOW);
        UUID second = submit(transitions, "team-b", "second", "lq", "cq", 0, StoreSliceTest.NOW);
        CommandPayload firstPayload = new CommandPayload(null, "high", List.of("pool-a", "pool-b"),
                Map.of("cloud.google.com/gke-nodepool", "pool-a"), "tpu");
        CommandPayload secondPayload = new CommandPayload(null, null, List.of(), Map.of(), null);

        commands.enqueueStarts(List.of(
                new AgentCommandStore.NewStart("prod-2", second, "team-b", "second", secondPayload),
                new AgentCommandStore.NewStart("prod-1", first, "team-a", "first", firstPayload)));

        assertThat(jdbc.sql("SELECT type || ' ' || namespace || '/' || name || '@' || cluster FROM agent_command ORDER BY seq")
                .query(String.class).list())
                .containsExactly("START team-b/second@prod-2", "START team-a/first@prod-1");
        assertThat(jdbc.sql("SELECT count(*) FROM agent_command WHERE payload -> 'manifest' IS NOT NULL")
                .query(Long.class).single()).as("no manifest copied into a command").isZero();
        // Delivered as a START carried them when each manifest was read, parsed and written into the command.
        for (Map.Entry<UUID, CommandPayload> start : Map.of(first, firstPayload, second, secondPayload).entrySet()) {
            CommandPayload p = start.getValue();
            String manifest = jdbc.sql("SELECT manifest::text FROM workload WHERE uid = ?").param(start.getKey())
                    .query(String.class).single();
            CommandPayload expected = new CommandPayload(json.readTree(manifest), p.priorityClassName(),
                    p.nodePools(), p.nodeLabels(), p.flavor());
            String cluster = start.getKey().equals(first) ? "prod-1" : "prod-2";
            assertThat(commands.deliver(cluster, null)).singleElement()
                    .satisfies(c -> assertThat(c.payload()).isEqualTo(expected));
        }
    }

    @Test
    void aStartIsDeliveredWithTheCheckpointRecordedAfterItsAdmission() {
        UUID uid = submit(transitions, "team-a", "resumes", "lq", "cq", 0, StoreSliceTest.NOW);
        commands.enqueueStarts(List.of(new AgentCommandStore.NewStart("prod-1", uid, "team-a", "resumes",
                new CommandPayload(null, null, List.of("pool-a"), Map.of(), null))));

        Instant checkpoint = StoreSliceTest.NOW.plusSeconds(600);
        assertThat(transitions.recordCheckpoints(Map.of(uid, checkpoint))).containsExactly(uid);

        assertThat(commands.deliver("prod-1", null)).singleElement().satisfies(c -> assertThat(c.payload().manifest()
                .path("metadata").path("annotations").path(PreemptionAnnotations.LAST_CHECKPOINT).asString())
                .isEqualTo(checkpoint.toString()));
    }

    private UUID admittedIn(String cluster) {
        UUID uid = submit(transitions, "team-a", "train", "lq", "cq", 0, StoreSliceTest.NOW);
        long version = jdbc.sql("SELECT version FROM workload WHERE uid = ?").param(uid).query(Long.class).single();
        Map<UUID, Long> landed = transitions.admit(List.of(new Admitting(uid, version, "cq", admission("cq", "pool-a"),
                cluster, List.of())), StoreSliceTest.NOW, 1);
        assertThat(landed).containsKey(uid);
        return uid;
    }
}
