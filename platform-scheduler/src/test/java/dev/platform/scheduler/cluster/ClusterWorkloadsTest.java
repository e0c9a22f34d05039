package dev.platform.scheduler.cluster;

import dev.platform.api.agent.CommandStatus;
import dev.platform.api.agent.CommandType;
import dev.platform.api.agent.WorkloadPhase;
import dev.platform.api.agent.WorkloadStatusReport;
import dev.platform.scheduler.testsupport.StoreSliceTest;
import dev.platform.scheduler.workload.WorkloadRow;
import dev.platform.scheduler.workload.WorkloadStore;
import dev.platform.scheduler.workload.WorkloadTransitions;
import dev.platform.scheduler.workload.WorkloadTransitions.Admitting;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static dev.platform.scheduler.testsupport.StoredWorkloads.admission;
import static dev.platform.scheduler.testsupport.StoredWorkloads.submit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which workloads' JobSets are missing from their cluster: only a JobSet the cluster acknowledged starting, that
 * a FULL report received at least the grace later, from a cluster still reporting, lacks; never one whose START
 * or a later command is still under way, one the report was taken too early to see, or one some report shows.
 */
@StoreSliceTest
class ClusterWorkloadsTest {

    private static final Instant NOW = StoreSliceTest.NOW;
    private static final Duration GRACE = Duration.ofSeconds(5);

    @Autowired
    ClusterWorkloads clusterWorkloads;

    @Autowired
    ClusterInventoryStore inventory;

    @Autowired
    AgentCommandStore commands;

    @Autowired
    WorkloadTransitions transitions;

    @Autowired
    WorkloadStore workloads;

    @Autowired
    AgentsProperties agents;

    @BeforeEach
    void aCluster() {
        inventory.createIfAbsent("prod-1");
    }

    private UUID admittedIn(String name) {
        UUID uid = submit(transitions, "team-a", name, "lq", "cq", 0, NOW.minusSeconds(120));
        WorkloadRow pending = workloads.find("team-a", name).orElseThrow();
        assertThat(transitions.admit(List.of(new Admitting(uid, pending.version(), "cq", admission("cq", "pool-a"),
                "prod-1", List.of())), NOW.minusSeconds(120), 1)).containsKey(uid);
        return uid;
    }

    private long command(UUID uid, CommandType type, String name, Instant ackedAt) {
        long id = commands.enqueue("prod-1", type, uid, "team-a", name, null, null);
        if (ackedAt != null) {
            commands.recordFinal(List.of(new AgentCommandStore.FinalResult(id, CommandStatus.SUCCEEDED, "done")),
                    ackedAt);
        }
        return id;
    }

    private void fullReport(Instant at) {
        inventory.recordReport("prod-1", "agent-a", at.toEpochMilli(), at, at, true);
    }

    private List<UUID> missing() {
        return clusterWorkloads.missingJobSets(NOW.minus(agents.staleness()), GRACE).stream()
                .map(ClusterWorkloads.MissingJobSet::uid).toList();
    }

    @Test
    void aStartedJobSetThatAFullReportReceivedAGraceLaterLacksIsMissing() {
        UUID gone = admittedIn("gone");
        command(gone, CommandType.START, "gone", NOW.minusSeconds(60));
        fullReport(NOW.minusSeconds(30));

        assertThat(clusterWorkloads.missingJobSets(NOW.minus(agents.staleness()), GRACE))
                .singleElement().satisfies(m -> {
                    assertThat(m.uid()).isEqualTo(gone);
                    assertThat(m.cluster()).isEqualTo("prod-1");
                    assertThat(m.acknowledgedAt()).isEqualTo(NOW.minusSeconds(60));
                    assertThat(m.fullReportAt()).isEqualTo(NOW.minusSeconds(30));
                });
        assertThat(clusterWorkloads.missingJobSets(NOW.minus(agents.staleness()), Duration.ofSeconds(31)))
                .as("a full report received sooner than the grace after the acknowledgement").isEmpty();
    }

    @Test
    void aJobSetSomeReportStillShowsIsNotMissing() {
        UUID shown = admittedIn("shown");
        command(shown, CommandType.START, "shown", NOW.minusSeconds(60));
        fullReport(NOW.minusSeconds(30));
        inventory.putWorkloads("prod-1", Map.of(shown, new WorkloadStatusReport(shown.toString(), "team-a", "shown",
                WorkloadPhase.PENDING, 1, 0, 0, 0, List.of(), List.of())), NOW.minusSeconds(10));

        assertThat(missing()).isEmpty();
    }

    @Test
    void aStartNotYetCarriedOutOrAcknowledgedAfterTheFullReportIsNotMissing() {
        UUID notYet = admittedIn("not-yet");
        command(notYet, CommandType.START, "not-yet", null);
        UUID afterReport = admittedIn("after-report");
        command(afterReport, CommandType.START, "after-report", NOW.minusSeconds(20));
        fullReport(NOW.minusSeconds(30));

        assertThat(missing()).isEmpty();
    }

    @Test
    void aRestartOrStopUnderWayIsALaterCommandAndLeavesTheWorkloadAlone() {
        UUID restarting = admittedIn("restarting");
        command(restarting, CommandType.START, "restarting", NOW.minusSeconds(90));
        command(restarting, CommandType.RESTART, "restarting", null);
        UUID restarted = admittedIn("restarted");
        command(restarted, CommandType.START, "restarted", NOW.minusSeconds(90));
        command(restarted, CommandType.RESTART, "restarted", NOW.minusSeconds(60));
        fullReport(NOW.minusSeconds(30));

        assertThat(missing()).as("the restart under way waits; the one done and then lacked is missing")
                .containsExactly(restarted);
    }

    @Test
    void aJobSetOfAnUnknownOrEndedWorkloadIsAStrayUnlessACommandForItIsUnderWayOrJustDone() {
        UUID unknown = UUID.randomUUID();
        UUID running = admittedIn("running");
        UUID ended = admittedIn("ended");
        assertThat(transitions.cancel(ended, NOW.minusSeconds(60), "alice")).isTrue();
        UUID deleting = admittedIn("deleting");
        assertThat(transitions.cancel(deleting, NOW.minusSeconds(60), "alice")).isTrue();
        command(deleting, CommandType.DELETE, "deleting", null);
        UUID justDeleted = admittedIn("just-deleted");
        assertThat(transitions.cancel(justDeleted, NOW.minusSeconds(60), "alice")).isTrue();
        command(justDeleted, CommandType.DELETE, "just-deleted", NOW.minusSeconds(2));
        UUID deletedLongAgo = admittedIn("deleted-long-ago");
        assertThat(transitions.cancel(deletedLongAgo, NOW.minusSeconds(60), "alice")).isTrue();
        command(deletedLongAgo, CommandType.DELETE, "deleted-long-ago", NOW.minusSeconds(50));

        assertThat(clusterWorkloads.strays("prod-1", List.of(unknown, running, ended, deleting, justDeleted,
                deletedLongAgo), NOW.minus(GRACE))).containsExactlyInAnyOrder(unknown, ended, deletedLongAgo);
        assertThat(clusterWorkloads.strays("prod-1", List.of(), NOW)).isEmpty();
    }

    @Test
    void aStaleClusterOrOneWithoutAFullReportDecidesNothing() {
        UUID gone = admittedIn("gone");
        command(gone, CommandType.START, "gone", NOW.minusSeconds(60));
        inventory.recordReport("prod-1", "agent-a", 1, null, NOW.minusSeconds(10), false);

        assertThat(missing()).as("only DELTA reports since the start").isEmpty();

        fullReport(NOW.minus(agents.staleness()).minusSeconds(1));
        assertThat(missing()).as("stale").isEmpty();
    }
}
