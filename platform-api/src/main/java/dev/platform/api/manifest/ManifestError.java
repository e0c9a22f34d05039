package dev.platform.api.manifest;

/**
 * One problem found in a request body.
 *
 * @param document 0-based index of the YAML document (or JSON item) in the request; -1 when the
 *                 problem concerns the body as a whole (size, encoding)
 * @param path     JSON-path-like location inside the document, e.g.
 *                 {@code spec.resourceGroups[0].flavors[1].resources[0].nominalQuota}; empty for the
 *                 document itself
 * @param message  what is wrong, in words a Kueue user understands
 */
public record ManifestError(int document, String path, String message) {
}
