package dev.platform.scheduler.core.admissioncheck;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Names of the objects Kueue derives for a workload, kept within Kubernetes' 253 characters as Kueue keeps them: a
 * longer name is cut to 247 characters and ends with a dash and the first five hex digits of the whole name's SHA-1.
 */
final class KubernetesObjectNames {

    private static final int HASH_LENGTH = 5;
    private static final int MAX_PREFIX_LENGTH = 252 - HASH_LENGTH;

    private KubernetesObjectNames() {
    }

    static String limit(String fullName) {
        if (fullName.length() <= MAX_PREFIX_LENGTH) {
            return fullName;
        }
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest(fullName.getBytes(StandardCharsets.UTF_8));
            return fullName.substring(0, MAX_PREFIX_LENGTH) + "-" + HexFormat.of().formatHex(sha1).substring(0, HASH_LENGTH);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
