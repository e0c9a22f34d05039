package dev.platform.scheduler.cluster;

import dev.platform.scheduler.web.ClusterNames;
import dev.platform.api.agent.AgentCommand;
import dev.platform.api.agent.AgentProtocol;
import dev.platform.api.agent.AgentReport;
import dev.platform.api.agent.CommandResult;
import dev.platform.api.agent.CommandResults;
import dev.platform.scheduler.refusal.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;

/** The scheduler's side of the agent protocol (docs/agent.md); authenticated by {@link AgentAuthentication}. */
@RestController
class AgentGatewayController {

    private static final Logger log = LoggerFactory.getLogger(AgentGatewayController.class);

    private final AgentReportService reports;
    private final AgentCommandService commands;

    AgentGatewayController(AgentReportService reports, AgentCommandService commands) {
        this.reports = reports;
        this.commands = commands;
    }

    @PostMapping(path = AgentProtocol.REPORTS_PATH, produces = "application/json")
    AgentReportService.ReportOutcome report(@PathVariable String cluster, @RequestBody AgentReport report,
                                            @RequestHeader(name = AgentProtocol.INSTANCE_HEADER, required = false)
                                            String instance) {
        ClusterNames.require(cluster);
        if (report.cluster() != null && !report.cluster().equals(cluster)) {
            throw badRequest("the report is of cluster " + report.cluster() + " but was posted for cluster " + cluster);
        }
        if (report.agentId() == null || report.agentId().isBlank()) {
            throw badRequest("agentId is required");
        }
        if (report.kind() == null) {
            throw badRequest("kind is required: FULL or DELTA");
        }
        List<String> problems = AgentReportChecks.problems(report);
        if (!problems.isEmpty()) {
            log.warn("cluster {}: report {} of agent {} refused, nothing applied: {}", cluster, report.sequence(),
                    report.agentId(), problems);
            throw new Refusal(Refusal.Kind.Malformed, "Bad Request", "the report is refused, nothing of it"
                    + " was applied: " + String.join("; ", problems), List.of());
        }
        return reports.apply(cluster, instance, report);
    }

    @GetMapping(path = AgentProtocol.COMMANDS_PATH, produces = "application/json")
    List<AgentCommand> commands(@PathVariable String cluster,
                                @RequestParam(name = AgentProtocol.AFTER_PARAM, required = false) Long after,
                                @RequestParam(name = AgentProtocol.WAIT_SECONDS_PARAM, defaultValue = "0") int waitSeconds,
                                @RequestHeader(name = AgentProtocol.INSTANCE_HEADER, required = false) String instance) {
        ClusterNames.require(cluster);
        // an agent of an earlier version names no instance: it is heard as before
        if (instance != null) {
            reports.requireSpeaker(cluster, instance);
        }
        return commands.poll(cluster, after, waitSeconds);
    }

    @PostMapping(path = AgentProtocol.COMMAND_RESULT_PATH)
    ResponseEntity<Void> result(@PathVariable String cluster, @PathVariable long id, @RequestBody CommandResult result) {
        ClusterNames.require(cluster);
        commands.recordResult(cluster, id, result);
        return ResponseEntity.noContent().build();
    }

    @PostMapping(path = AgentProtocol.COMMAND_RESULTS_PATH)
    ResponseEntity<Void> results(@PathVariable String cluster, @RequestBody CommandResults results) {
        ClusterNames.require(cluster);
        commands.recordResults(cluster, results.results());
        return ResponseEntity.noContent().build();
    }

    private static Refusal badRequest(String detail) {
        return new Refusal(Refusal.Kind.Malformed, "Bad Request", detail, List.of());
    }
}
