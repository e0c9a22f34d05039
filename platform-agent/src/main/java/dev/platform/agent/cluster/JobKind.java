package dev.platform.agent.cluster;

import java.util.Arrays;
import java.util.Optional;

/**
 * The suspendable workload objects the platform queues in a cluster, as Kueue's job integrations: a JobSet and a
 * batch Job. Each is created or resumed when admitted, suspended when stopped, and named after its kind at Kueue's
 * webhook paths (controller-runtime names them after group, version and kind), so a webhook configuration written
 * for Kueue points at the agent unchanged but for the Service.
 */
public enum JobKind {

    JOBSET("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets", "jobset.sigs.k8s.io/jobset-name"),
    JOB("batch", "v1", "Job", "jobs", "batch.kubernetes.io/job-name");

    private final String group;
    private final String version;
    private final String kind;
    private final String resource;
    private final String podLabel;

    JobKind(String group, String version, String kind, String resource, String podLabel) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.resource = resource;
        this.podLabel = podLabel;
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

    /** The plural resource name of the API path and of RBAC rules. */
    public String resource() {
        return resource;
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    /** The label the kind's controller puts on each of its pods, naming the object: how its pods are listed. */
    public String podLabel() {
        return podLabel;
    }

    /**
     * The key of an object of this kind in the agent's maps. A JobSet keeps the {@code namespace/name} of the
     * versions that knew JobSets only (the simulated cluster's file holds it); a Job's says it is one, so a Job and
     * a JobSet of the same name are two objects.
     */
    public String key(String namespace, String name) {
        return this == JOBSET ? namespace + "/" + name : kind + ":" + namespace + "/" + name;
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

    /** The kind of an AdmissionReview's {@code request.kind}, if it is one of these. */
    public static Optional<JobKind> of(String group, String version, String kind) {
        return Arrays.stream(values())
                .filter(k -> k.group.equals(group) && k.version.equals(version) && k.kind.equals(kind))
                .findFirst();
    }

    /** The kind of a manifest's {@code apiVersion} and {@code kind}, if it is one of these. */
    public static Optional<JobKind> ofManifest(String apiVersion, String kind) {
        return Arrays.stream(values())
                .filter(k -> k.apiVersion().equals(apiVersion) && k.kind.equals(kind))
                .findFirst();
    }
}
