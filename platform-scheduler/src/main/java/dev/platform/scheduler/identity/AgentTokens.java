package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.annotation.Transactional;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Agent tokens, each bound to one cluster: those issued through the API (hashed in the database,
 * revocable) and those configured for bootstrapping ({@code platform.agents.tokens.<cluster>}).
 */
public class AgentTokens {

    /** An issued agent token's lifetime unless asked otherwise: a year, the longest any token has. */
    static final Duration DEFAULT_LIFETIME = Duration.ofDays(365);
    /** From this long before its expiry, each use of a token is a warning in the log (at most hourly). */
    static final Duration EXPIRY_WARNING = Duration.ofDays(14);
    private static final Duration WARNING_INTERVAL = Duration.ofHours(1);
    private static final Logger log = LoggerFactory.getLogger(AgentTokens.class);

    private final Map<Long, Instant> expiryWarnedAt = new ConcurrentHashMap<>();
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

    /**
     * @param lifetime null for {@link #DEFAULT_LIFETIME}; every issued token expires (rotate it before: issue
     *                 a new one, put it into the agent's secret, revoke the old one)
     */
    @Transactional
    public Issued issue(String cluster, String description, Duration lifetime, Caller actor) {
        Instant now = clock.instant();
        Instant expiresAt = now.plus(ApiTokens.checkedLifetime(lifetime, DEFAULT_LIFETIME));
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
        Instant now = clock.instant();
        Optional<AgentToken> token = tokens.findByTokenHash(hash).filter(t -> t.isValidAt(now));
        token.ifPresent(t -> warnOfExpiry(t, now));
        return token.map(AgentToken::cluster);
    }

    /** An agent's token about to expire would cut its cluster off: said while there is time to rotate it. */
    private void warnOfExpiry(AgentToken token, Instant now) {
        if (token.expiresAt() == null || token.expiresAt().isAfter(now.plus(EXPIRY_WARNING))) {
            return;
        }
        Instant warned = expiryWarnedAt.get(token.id());
        if (warned != null && warned.plus(WARNING_INTERVAL).isAfter(now)) {
            return;
        }
        expiryWarnedAt.put(token.id(), now);
        log.warn("agent token {} of cluster {} expires at {}: issue a new one (POST /api/v1/clusters/{}/agent-tokens),"
                        + " put it into the agent's platform.agent.token and revoke this one", token.id(),
                token.cluster(), token.expiresAt(), token.cluster());
    }
}
