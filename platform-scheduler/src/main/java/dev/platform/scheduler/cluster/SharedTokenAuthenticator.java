package dev.platform.scheduler.cluster;

import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One token for every agent ({@code platform.agents.token}). Both sides are hashed before a
 * constant-time comparison, so neither the content nor the length of the token leaks through
 * timing.
 */
@Component
class SharedTokenAuthenticator implements AgentAuthenticator {

    private final byte[] expectedHash;

    SharedTokenAuthenticator(AgentsProperties properties) {
        String token = properties.token();
        this.expectedHash = token == null || token.isBlank() ? null : sha256(token);
    }

    @Override
    public Verdict authenticate(String cluster, String token) {
        if (expectedHash == null) {
            return Verdict.DISABLED;
        }
        if (token == null) {
            return Verdict.REJECTED;
        }
        return MessageDigest.isEqual(expectedHash, sha256(token)) ? Verdict.ACCEPTED : Verdict.REJECTED;
    }

    private static byte[] sha256(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
