package dev.platform.agent.webhook;

import java.util.Arrays;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kinds whose admission the webhook reviews, at Kueue's paths (controller-runtime names them after group,
 * version and kind), so a webhook configuration written for Kueue points at the agent unchanged but for the
 * Service. Both keep their suspension at {@code spec.suspend}; their pod sets are what admission sized quota for.
 */
public enum JobKind {

    JOBSET("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets") {
        @Override
        JsonNode podSets(JsonNode object) {
            return object.path("spec").path("replicatedJobs");
        }

        @Override
        String podSetsPath() {
            return "spec.replicatedJobs";
        }
    },
    JOB("batch", "v1", "Job", "jobs") {
        /** Kueue's single pod set of a Job: its pod template, sized by parallelism and completions. */
        @Override
        JsonNode podSets(JsonNode object) {
            JsonNode spec = object.path("spec");
            ObjectNode podSet = JsonNodeFactory.instance.objectNode();
            podSet.set("template", spec.path("template"));
            podSet.set("parallelism", spec.path("parallelism"));
            podSet.set("completions", spec.path("completions"));
            return podSet;
        }

        @Override
        String podSetsPath() {
            return "spec.template";
        }
    };

    private final String group;
    private final String version;
    private final String kind;
    private final String resource;

    JobKind(String group, String version, String kind, String resource) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.resource = resource;
    }

    /** What admission sized quota for; an admitted workload's must not change. */
    abstract JsonNode podSets(JsonNode object);

    /** Where {@link #podSets} live, as a field path in a refusal. */
    abstract String podSetsPath();

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
