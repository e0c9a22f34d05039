package dev.platform.api.manifest;

import java.util.List;

/**
 * Reads a request body (multi-document YAML, a JSON object, a JSON array of objects, or a
 * Kubernetes {@code List}) into decoded, validated documents: configuration kinds and workloads
 * (JobSet, Job, Workload).
 */
public interface ManifestParser {

    /** Body formats accepted. */
    enum Format { YAML, JSON }

    /**
     * Parses and validates every document, of any kind; all-or-nothing. A workload without
     * {@code metadata.namespace} is in {@code default}, as kubectl puts it.
     *
     * @throws ManifestRejectedException listing every problem found, when any document is bad
     */
    List<DecodedDocument> parse(byte[] body, Format format);

    /**
     * Parses a submission: exactly one JobSet, Job or Workload document. A document without
     * {@code metadata.namespace} takes {@code namespace}; one naming another namespace is invalid.
     *
     * @throws ManifestRejectedException when the body is not exactly one valid workload
     */
    DecodedDocument parseWorkload(byte[] body, Format format, String namespace);
}
