package dev.platform.scheduler.identity;

import dev.platform.api.identity.Caller;
import dev.platform.scheduler.refusal.Refusal;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * API tokens: issued to a user (by themself, or by an Admin for anyone), shown once, stored as a hash,
 * checked on every request: an expiry takes effect on the next one, a revocation within the token cache's
 * time on every replica ({@link AuthenticatedTokens}) and on the next request on the replica that revoked it.
 */
@Service
public class ApiTokens {

    static final Duration DEFAULT_LIFETIME = Duration.ofDays(90);
    static final Duration MAX_LIFETIME = Duration.ofDays(366);
    static final Duration MIN_LIFETIME = Duration.ofMinutes(1);

    private final ApiTokenRepository tokens;
    private final UserAccountRepository users;
    private final AuthenticatedTokens authenticated;
    private final AccessAudit audit;
    private final Clock clock;

    ApiTokens(ApiTokenRepository tokens, UserAccountRepository users, AuthenticatedTokens authenticated,
              AccessAudit audit, Clock clock) {
        this.tokens = tokens;
        this.users = users;
        this.authenticated = authenticated;
        this.audit = audit;
        this.clock = clock;
    }

    /** A token just issued, with its secret: the only time the secret is seen. */
    public record Issued(ApiToken token, String secret) {
    }

    /**
     * @param owner    null for the caller themself
     * @param lifetime null for the default (90 days)
     */
    @Transactional
    public Issued issue(String owner, String description, Duration lifetime, Caller actor) {
        String user = owner == null ? actor.name() : owner;
        if (!user.equals(actor.name()) && !actor.isAdmin()) {
            throw new Refusal(Refusal.Kind.Forbidden, "Forbidden",
                    "only an Admin issues tokens for another user", List.of());
        }
        if (!users.existsById(user)) {
            throw new Refusal(Refusal.Kind.Invalid, "Invalid token request", "user \"" + user
                    + "\" does not exist; an API token acts as a user of the platform (POST /api/v1/users)",
                    List.of(Map.of("document", 0, "path", "user", "message", "no such user")));
        }
        Instant now = clock.instant();
        Instant expiresAt = now.plus(checkedLifetime(lifetime, DEFAULT_LIFETIME));
        String secret = TokenSecrets.generate(TokenSecrets.API_PREFIX);
        ApiToken token = tokens.save(new ApiToken(TokenSecrets.hash(secret), user, checkedDescription(description),
                now, actor.name(), expiresAt));
        audit.record(actor.name(), AccessAuditEntry.Action.TokenCreated, "api-token/" + token.id(), "user=" + user);
        return new Issued(token, secret);
    }

    /** The caller's own tokens; an Admin's call with {@code user} lists that user's, and without it everyone's. */
    @Transactional(readOnly = true)
    public List<ApiToken> list(String user, Caller caller) {
        if (caller.isAdmin()) {
            return user == null ? tokens.findAllByOrderById() : tokens.findAllByUserNameOrderById(user);
        }
        if (user != null && !user.equals(caller.name())) {
            throw new Refusal(Refusal.Kind.Forbidden, "Forbidden", "only an Admin lists another user's tokens",
                    List.of());
        }
        return tokens.findAllByUserNameOrderById(caller.name());
    }

    /** Revokes one of the caller's tokens (an Admin: anyone's); another user's token is not found, not forbidden. */
    @Transactional
    public void revoke(long id, Caller caller) {
        ApiToken token = tokens.findById(id)
                .filter(t -> caller.isAdmin() || t.userName().equals(caller.name()))
                .orElseThrow(() -> Refusal.notFound("API token", String.valueOf(id)));
        if (token.revoke(caller.name(), clock.instant())) {
            authenticated.forgetAfterCommit();
            audit.record(caller.name(), AccessAuditEntry.Action.TokenRevoked, "api-token/" + id,
                    "user=" + token.userName());
        }
    }

    /**
     * The user a presented secret acts as, with their roles as looked up at most
     * {@code platform.security.api-tokens.cache-ttl} ago ({@link AuthenticatedTokens}); empty when unknown,
     * revoked or expired.
     */
    public Optional<Caller> authenticate(String secret) {
        return authenticated.caller(TokenSecrets.hash(secret));
    }

    /**
     * Makes {@code secret} an Admin token of user {@code admin} (created when missing), as
     * {@code PLATFORM_BOOTSTRAP_ADMIN_TOKEN} asks; nothing happens when it is one already.
     *
     * @return true when the token was created now
     */
    @Transactional
    boolean ensureBootstrapToken(String secret, UserAccount admin) {
        byte[] hash = TokenSecrets.hash(secret);
        if (tokens.findByTokenHash(hash).isPresent()) {
            return false;
        }
        tokens.save(new ApiToken(hash, admin.name(), "bootstrap (PLATFORM_BOOTSTRAP_ADMIN_TOKEN)", clock.instant(),
                AdminBootstrap.ACTOR, null));
        audit.record(AdminBootstrap.ACTOR, AccessAuditEntry.Action.TokenCreated, "api-token/bootstrap",
                "user=" + admin.name());
        return true;
    }

    static Duration checkedLifetime(Duration lifetime, Duration defaultLifetime) {
        Duration checked = lifetime == null ? defaultLifetime : lifetime;
        if (checked.compareTo(MIN_LIFETIME) < 0 || checked.compareTo(MAX_LIFETIME) > 0) {
            throw new Refusal(Refusal.Kind.Invalid, "Invalid token request",
                    "expiresInSeconds must be between " + MIN_LIFETIME.toSeconds() + " and " + MAX_LIFETIME.toSeconds(),
                    List.of(Map.of("document", 0, "path", "expiresInSeconds", "message", "out of range")));
        }
        return checked;
    }

    static String checkedDescription(String description) {
        String text = description == null ? "" : description.strip();
        if (text.length() > 200 || text.chars().anyMatch(Character::isISOControl)) {
            throw new Refusal(Refusal.Kind.Invalid, "Invalid token request",
                    "description: at most 200 characters, no control characters",
                    List.of(Map.of("document", 0, "path", "description", "message", "too long or not printable")));
        }
        return text;
    }
}
