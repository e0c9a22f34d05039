package dev.platform.api.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The wire shapes the scheduler and the agent share, through a default Jackson 3 mapper. */
class AgentProtocolJsonTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void aCommandListReadsFromTheDocumentedShape() {
        String body = """
                [{"id": 42, "type": "START", "workloadUid": "wl-1", "namespace": "default", "name": "train",
                  "expiresAt": "2026-01-01T00:01:00Z",
                  "payload": {"manifest": {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet"},
                              "priorityClassName": "high-priority-job", "nodePools": ["p-0", "p-1"],
                              "nodeLabels": {"cloud.google.com/gke-tpu-accelerator": "tpu-v6e-slice"},
                              "flavor": "tpu-v6e-slice"}},
                 {"id": 43, "type": "STOP", "workloadUid": "wl-2", "namespace": "default", "name": "other",
                  "expiresAt": null, "payload": null}]
                """;

        List<AgentCommand> commands = json.readValue(body, new TypeReference<>() {
        });

        assertThat(commands).hasSize(2);
        AgentCommand start = commands.get(0);
        assertThat(start.type()).isEqualTo(CommandType.START);
        assertThat(start.expiresAt()).isEqualTo(Instant.parse("2026-01-01T00:01:00Z"));
        assertThat(start.payload().nodePools()).containsExactly("p-0", "p-1");
        assertThat(start.payload().manifest().path("kind").asString()).isEqualTo("JobSet");
        assertThat(commands.get(1).payload()).isNull();
    }

    @Test
    void aReportWritesInstantsAsIsoStringsAndEnumsByName() {
        AgentReport report = new AgentReport("c1", "agent-0", true, 7, Instant.parse("2026-01-01T00:00:00Z"), ReportKind.DELTA,
                List.of(new NodePoolReport("p-0", "tpu-v6e-slice", "4x4", HealthState.UNHEALTHY,
                        List.of(NodeHealthReason.NOT_READY),
                        List.of(new NodeReport("n-0", HealthState.UNHEALTHY, List.of(NodeHealthReason.NOT_READY), 4, 4, null)))),
                List.of(), List.of(new WorkloadStatusReport("wl-1", "default", "train", WorkloadPhase.RUNNING, 0, 8, 0, 0,
                        List.of("n-0"), List.of("p-0"))), List.of());

        JsonNode tree = json.valueToTree(report);

        assertThat(tree.path("sentAt").asString()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(tree.path("kind").asString()).isEqualTo("DELTA");
        assertThat(tree.path("nodePools").path(0).path("reasons").path(0).asString()).isEqualTo("NOT_READY");
        assertThat(json.treeToValue(tree, AgentReport.class)).isEqualTo(report);
    }

    @Test
    void aResultRoundTrips() {
        CommandResult result = new CommandResult(9, CommandStatus.RETRYING, "1 eviction(s) refused",
                new EvictionProgress(2, 1, List.of("default/p-1")), "agent-0", Instant.parse("2026-01-01T00:00:00Z"));

        String written = json.writeValueAsString(result);

        assertThat(json.readValue(written, CommandResult.class)).isEqualTo(result);
        assertThat(CommandStatus.RETRYING.isFinal()).isFalse();
        assertThat(Map.of("SUCCEEDED", CommandStatus.SUCCEEDED.isFinal(), "REFUSED_EXPIRED", CommandStatus.REFUSED_EXPIRED.isFinal()))
                .containsOnly(Map.entry("SUCCEEDED", true), Map.entry("REFUSED_EXPIRED", true));
    }

    @Test
    void aResultFromAnAgentThatDoesNotSayWhetherAFailureIsTransientReadsAsPermanent() {
        CommandResult old = json.readValue("""
                {"commandId": 9, "status": "FAILED", "message": "namespaces \\"x\\" not found", "eviction": null,
                 "agentId": "agent-0", "at": "2026-01-01T00:00:00Z"}""", CommandResult.class);
        CommandResult current = json.readValue("""
                {"commandId": 10, "status": "FAILED", "message": "503", "agentId": "agent-0",
                 "at": "2026-01-01T00:00:00Z", "transientFailure": true}""", CommandResult.class);

        assertThat(old.transientFailure()).isNull();
        assertThat(old.failedTransiently()).isFalse();
        assertThat(current.failedTransiently()).isTrue();
    }

    @Test
    void aWorkloadsLastCheckpointTravelsAsAnIsoStringAndIsNullFromAnOlderAgent() {
        WorkloadStatusReport current = new WorkloadStatusReport("wl-1", "default", "train", WorkloadPhase.RUNNING, 0, 3,
                0, 0, List.of(), List.of(), 3, Instant.parse("2026-01-01T10:00:00Z"));
        WorkloadStatusReport old = json.readValue("""
                {"workloadUid": "wl-1", "namespace": "default", "jobSetName": "train", "phase": "RUNNING",
                 "podsPending": 0, "podsRunning": 3, "podsSucceeded": 0, "podsFailed": 0, "podsReady": 3}""",
                WorkloadStatusReport.class);

        JsonNode tree = json.valueToTree(current);

        assertThat(tree.path("lastCheckpoint").asString()).isEqualTo("2026-01-01T10:00:00Z");
        assertThat(json.treeToValue(tree, WorkloadStatusReport.class)).isEqualTo(current);
        assertThat(old.lastCheckpoint()).isNull();
    }

    @Test
    void aWorkloadReportWithoutReadyPodsCountsRunningPodsAsReady() {
        WorkloadStatusReport old = json.readValue("""
                {"workloadUid": "wl-1", "namespace": "default", "jobSetName": "train", "phase": "RUNNING",
                 "podsPending": 0, "podsRunning": 3, "podsSucceeded": 1, "podsFailed": 0}""",
                WorkloadStatusReport.class);
        WorkloadStatusReport current = new WorkloadStatusReport("wl-1", "default", "train", WorkloadPhase.RUNNING, 0, 3,
                1, 0, List.of(), List.of(), 2);

        assertThat(old.podsReadyOrSucceeded()).isEqualTo(4);
        assertThat(current.podsReadyOrSucceeded()).isEqualTo(3);
    }
}
