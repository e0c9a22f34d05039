package dev.platform.api.agent;

import java.util.List;

/**
 * Answer of {@code GET /api/v1/agent/clusters/{cluster}/decisions?after=<id>}: the decisions in id order, and
 * {@code last}, the highest id the answer covered (decisions that make no Event are left out, so it may be above the
 * last item's); the agent asks next with {@code after=last}, at once while {@code more} says the answer was cut at
 * {@link AgentProtocol#MAX_DECISIONS_PER_ANSWER} entries.
 */
public record AgentDecisions(List<AgentDecision> items, long last, boolean more) {

    public AgentDecisions {
        items = items == null ? List.of() : List.copyOf(items);
    }
}
