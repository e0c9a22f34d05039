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
     * {@code metadata.namespace} is in {@code default}, as kubectl puts it. Unknown fields are treated as
     * {@link FieldValidation#defaultFor} each document's kind says.
     *
     * @throws ManifestRejectedException listing every problem found, when any document is bad
     */
    List<DecodedDocument> parse(byte[] body, Format format);

    /** As {@link #parse(byte[], Format)}, with unknown fields of every document treated as {@code fieldValidation} says. */
    List<DecodedDocument> parse(byte[] body, Format format, FieldValidation fieldValidation);

    /**
     * Parses a submission: exactly one JobSet, Job or Workload document. A document without
     * {@code metadata.namespace} takes {@code namespace}; one naming another namespace is invalid.
     *
     * @throws ManifestRejectedException when the body is not exactly one valid workload
     */
    DecodedDocument parseWorkload(byte[] body, Format format, String namespace, FieldValidation fieldValidation);
}
