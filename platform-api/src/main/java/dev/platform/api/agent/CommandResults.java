package dev.platform.api.agent;

import java.util.List;

/**
 * Body of {@code POST /api/v1/agent/clusters/{cluster}/commands/results}: results of commands of that
 * cluster, at most {@link AgentProtocol#MAX_RESULTS_PER_BATCH}, recorded in the order given (a RETRYING
 * and the final result of one command may travel together). Recorded as one: every result or none.
 */
public record CommandResults(List<CommandResult> results) {

    public CommandResults {
        results = results == null ? List.of() : List.copyOf(results);
    }
}
