package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.transaction.annotation.Transactional;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Agent tokens, each bound to one cluster: those issued through the API (hashed in the database,
 * revocable) and those configured for bootstrapping ({@code platform.agents.tokens.<cluster>}).
 */
public class AgentTokens {

    private final AgentTokenRepository tokens;
    private final AccessAudit audit;
    private final Clock clock;
    /** Configured tokens by hash: a lookup by the hash of a presented secret reveals nothing about the others. */
    private final Map<ByteBuffer, String> configured;

    AgentTokens(AgentTokenRepository tokens, AccessAudit audit, Clock clock, Map<String, String> configuredByCluster) {
        this.tokens = tokens;
        this.audit = audit;
        this.clock = clock;
        this.configured = new HashMap<>();
        configuredByCluster.forEach((cluster, secret) -> {
            if (secret == null || secret.length() < 16) {
                throw new IllegalStateException("platform.agents.tokens." + cluster
                        + " must be at least 16 characters long");
            }
            configured.put(ByteBuffer.wrap(TokenSecrets.hash(secret)), cluster);
        });
    }

    public record Issued(AgentToken token, String secret) {
    }

    /** @param lifetime null for a token that does not expire (it is mounted into the agent as a secret) */
    @Transactional
    public Issued issue(String cluster, String description, Duration lifetime, Caller actor) {
        Instant now = clock.instant();
        Instant expiresAt = lifetime == null ? null : now.plus(ApiTokens.checkedLifetime(lifetime, null));
        String secret = TokenSecrets.generate(TokenSecrets.AGENT_PREFIX);
        AgentToken token = tokens.save(new AgentToken(TokenSecrets.hash(secret), cluster,
                ApiTokens.checkedDescription(description), now, actor.name(), expiresAt));
        audit.record(actor.name(), AccessAuditEntry.Action.AgentTokenCreated, "agent-token/" + token.id(),
                "cluster=" + cluster);
        return new Issued(token, secret);
    }

    @Transactional(readOnly = true)
    public List<AgentToken> list(String cluster) {
        return tokens.findAllByClusterOrderById(cluster);
    }

    @Transactional
    public void revoke(String cluster, long id, Caller actor) {
        AgentToken token = tokens.findById(id).filter(t -> t.cluster().equals(cluster))
                .orElseThrow(() -> Refusal.notFound("agent token of cluster " + cluster, String.valueOf(id)));
        if (token.revoke(actor.name(), clock.instant())) {
            audit.record(actor.name(), AccessAuditEntry.Action.AgentTokenRevoked, "agent-token/" + id,
                    "cluster=" + cluster);
        }
    }

    /** The cluster whose agent presents {@code secret}; empty when it is no valid agent token. */
    @Transactional(readOnly = true)
    public Optional<String> clusterOf(String secret) {
        byte[] hash = TokenSecrets.hash(secret);
        String configuredCluster = configured.get(ByteBuffer.wrap(hash));
        if (configuredCluster != null) {
            return Optional.of(configuredCluster);
        }
        return tokens.findByTokenHash(hash).filter(t -> t.isValidAt(clock.instant())).map(AgentToken::cluster);
    }
}
