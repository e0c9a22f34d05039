package dev.platform.scheduler.cluster;

/**
 * Decides whether a bearer token may act as the agent of a cluster. Today one shared token
 * ({@link SharedTokenAuthenticator}); per-cluster hashed tokens (table api_credential, role
 * AGENT) replace it with the security issue.
 */
public interface AgentAuthenticator {

    enum Verdict {
        ACCEPTED,
        REJECTED,
        /** no agent credential is configured at all: every agent call is refused. */
        DISABLED
    }

    /** {@code token} is the presented bearer token, or null when the request carries none. */
    Verdict authenticate(String cluster, String token);
}
