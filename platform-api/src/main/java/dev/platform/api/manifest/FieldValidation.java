package dev.platform.api.manifest;

/**
 * What becomes of a field that the schema of its kind does not know, as Kubernetes' server-side field
 * validation decides it (the API server's {@code fieldValidation} query parameter, kubectl's
 * {@code --validate=strict|warn|ignore}).
 */
public enum FieldValidation {
    /** The document is refused, every unknown field an error at its path. */
    Strict,
    /** The document is accepted; each unknown field is a warning. */
    Warn,
    /** The document is accepted; unknown fields are not mentioned. */
    Ignore;

    /**
     * Without a {@code fieldValidation} parameter: a workload is checked strictly, as kubectl sends it; a
     * configuration kind is accepted with warnings, because its decoder knows only the fields the platform
     * implements, and a Kueue field it does not know is no typo.
     */
    public static FieldValidation defaultFor(Kind kind) {
        return kind.isConfiguration() ? Warn : Strict;
    }
}
