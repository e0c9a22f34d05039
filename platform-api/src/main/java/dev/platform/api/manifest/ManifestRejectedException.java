package dev.platform.api.manifest;

import java.util.List;

/** A request body that cannot be applied; carries every problem found, not only the first. */
public class ManifestRejectedException extends RuntimeException {

    /** Why the body was rejected; decides the HTTP status. */
    public enum Cause {
        /** Not parseable as YAML or JSON, or not objects at the top level: 400. */
        MALFORMED,
        /** Parsed, but a document breaks a rule: 422. */
        INVALID,
        /** Larger than the body limit: 413. */
        TOO_LARGE
    }

    private final Cause cause;
    private final transient List<ManifestError> errors;

    public ManifestRejectedException(Cause cause, List<ManifestError> errors) {
        super(cause + ": " + errors);
        this.cause = cause;
        this.errors = List.copyOf(errors);
    }

    public Cause rejection() {
        return cause;
    }

    public List<ManifestError> errors() {
        return errors;
    }
}
