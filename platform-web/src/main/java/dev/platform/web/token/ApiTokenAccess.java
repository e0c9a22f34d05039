package dev.platform.web.token;

import dev.platform.api.identity.Caller;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A port: the caller's own API tokens, implemented by the scheduler with the same rules as
 * {@code /api/v1/tokens} (audited under the caller; the secret exists only in the answer to its creation).
 */
public interface ApiTokenAccess {

    /** One token as its owner sees it: never its secret; {@code expiresAt} is null for one that never expires. */
    record TokenLine(long id, String description, Instant createdAt, Instant expiresAt, Instant revokedAt) {

        public boolean isRevoked() {
            return revokedAt != null;
        }

        public boolean isExpiredAt(Instant now) {
            return expiresAt != null && expiresAt.isBefore(now);
        }
    }

    /** A token just created, with the secret shown this once. */
    record CreatedToken(TokenLine token, String secret) {
    }

    List<TokenLine> ownTokens(Caller caller);

    /**
     * @throws IllegalArgumentException when the description or lifetime is refused, with the reason to show
     */
    CreatedToken create(Caller caller, String description, Duration lifetime);

    /** @return false when the caller has no token with that id */
    boolean revoke(Caller caller, long id);
}
