package dev.platform.scheduler.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * New token secrets (256 random bits, with a prefix that tells API tokens from agent tokens at a
 * glance and lets secret scanners find them) and the hash under which a secret is stored.
 */
public final class TokenSecrets {

    /** Prefix of API tokens, which act as a user. */
    public static final String API_PREFIX = "plt_";
    /** Prefix of agent tokens, which act as one cluster's agent. */
    public static final String AGENT_PREFIX = "pla_";

    private static final SecureRandom RANDOM = new SecureRandom();

    private TokenSecrets() {
    }

    static String generate(String prefix) {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** SHA-256: a secret of 256 random bits needs no salt or slow hash, and lookup by hash stays one index probe. */
    public static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
