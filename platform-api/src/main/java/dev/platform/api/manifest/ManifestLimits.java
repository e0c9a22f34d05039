package dev.platform.api.manifest;

/**
 * Bounds on a request body, checked before anything is decoded, so that a hostile body (a YAML
 * "billion laughs", a thousand nested lists) costs little.
 *
 * @param maxBytes     body size; larger is rejected as too large (413)
 * @param maxAliases   YAML aliases to collections (anchors reused with {@code *name})
 * @param maxDepth     nesting of maps and lists, YAML and JSON alike
 * @param maxDocuments documents in one request, Kubernetes List items counted one by one
 */
public record ManifestLimits(int maxBytes, int maxAliases, int maxDepth, int maxDocuments) {

    /** 1 MiB, as the Kubernetes API server's default request limit is of that order; depth fits JobSets easily. */
    public static final ManifestLimits DEFAULT = new ManifestLimits(1024 * 1024, 50, 64, 1000);

    public ManifestLimits {
        if (maxBytes <= 0 || maxAliases < 0 || maxDepth <= 0 || maxDocuments <= 0) {
            throw new IllegalArgumentException("limits must be positive: " + maxBytes + ", " + maxAliases + ", "
                    + maxDepth + ", " + maxDocuments);
        }
    }
}
