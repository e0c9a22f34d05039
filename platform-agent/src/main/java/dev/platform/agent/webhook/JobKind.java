package dev.platform.agent.webhook;

import java.util.Arrays;
import java.util.Optional;

/**
 * The kinds whose admission the webhook reviews, at Kueue's paths (controller-runtime names them after group,
 * version and kind), so a webhook configuration written for Kueue points at the agent unchanged but for the
 * Service.
 */
public enum JobKind {

    JOBSET("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets", true),
    /**
     * Reviewed but left alone: the platform starts JobSets only (its START materializes a JobSet), so a Job it
     * suspended would never be resumed. The path answers so that a webhook configuration written for Kueue blocks
     * no Job; the chart does not register it.
     */
    JOB("batch", "v1", "Job", "jobs", false);

    private final String group;
    private final String version;
    private final String kind;
    private final String resource;
    private final boolean managed;

    JobKind(String group, String version, String kind, String resource, boolean managed) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.resource = resource;
        this.managed = managed;
    }

    /** Whether the webhook suspends and guards this kind; one it does not manage is allowed unchanged. */
    boolean managed() {
        return managed;
    }

    public String group() {
        return group;
    }

    public String version() {
        return version;
    }

    public String kind() {
        return kind;
    }

    public String resource() {
        return resource;
    }

    /** {@code /mutate-jobset-x-k8s-io-v1alpha2-jobset}, {@code /mutate-batch-v1-job}. */
    public String mutatePath() {
        return "/mutate-" + pathSuffix();
    }

    /** {@code /validate-jobset-x-k8s-io-v1alpha2-jobset}, {@code /validate-batch-v1-job}. */
    public String validatePath() {
        return "/validate-" + pathSuffix();
    }

    private String pathSuffix() {
        return group.replace('.', '-') + "-" + version + "-" + kind.toLowerCase();
    }

    /** The kind of an AdmissionReview's {@code request.kind}, if the webhook reviews it. */
    static Optional<JobKind> of(String group, String version, String kind) {
        return Arrays.stream(values())
                .filter(k -> k.group.equals(group) && k.version.equals(version) && k.kind.equals(kind))
                .findFirst();
    }
}
