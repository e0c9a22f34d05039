package dev.platform.web.token;

import dev.platform.api.identity.Caller;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A port: the caller's own API tokens, implemented by the scheduler with the same rules as
 * {@code /api/v1/tokens} (audited under the caller; the secret exists only in the answer to its creation).
 */
public interface ApiTokenAccess {

    /** One token as its owner sees it: never its secret; {@code expiresAt} is null for one that never expires. */
    record TokenLine(long id, String description, Instant createdAt, Instant expiresAt, Instant revokedAt)
            implements Serializable {

        public boolean isRevoked() {
            return revokedAt != null;
        }

        public boolean isExpiredAt(Instant now) {
            return expiresAt != null && expiresAt.isBefore(now);
        }
    }

    /** A token just created, with the secret shown this once (serializable: it crosses one redirect in the session). */
    record CreatedToken(TokenLine token, String secret) implements Serializable {
    }

    List<TokenLine> ownTokens(Caller caller);

    /**
     * @throws IllegalArgumentException when the description or lifetime is refused, with the reason to show
     */
    CreatedToken create(Caller caller, String description, Duration lifetime);

    /**
     * A kubeconfig for kubectl around a new token of the caller, as {@code POST /api/v1/kubeconfig} answers it.
     *
     * @param host the host the browser reached the console by, which the kubeconfig's server names
     * @return the kubeconfig, YAML
     * @throws IllegalArgumentException when the description or lifetime is refused, or the platform cannot say
     *                                  where kubectl reaches it, with the reason to show
     */
    String kubeconfig(Caller caller, String description, Duration lifetime, String host);

    /** @return false when the caller has no token with that id */
    boolean revoke(Caller caller, long id);
}
