package dev.platform.scheduler.identity;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.util.Map;

/**
 * Agent tokens configured for bootstrapping ({@code platform.agents.tokens.<cluster>=<token>}): each is
 * valid for its cluster's agent endpoints only, beside the tokens issued through
 * {@code POST /api/v1/clusters/{cluster}/agent-tokens}.
 *
 * @param tokens the token of each cluster, by cluster name (at least 16 characters each)
 */
@ConfigurationProperties("platform.agents")
public record AgentTokenSettings(Map<String, String> tokens) {

    public AgentTokenSettings {
        tokens = tokens == null ? Map.of() : Map.copyOf(tokens);
    }
}
