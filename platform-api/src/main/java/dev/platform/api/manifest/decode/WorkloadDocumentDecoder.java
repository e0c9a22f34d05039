package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.ObjectMeta;
import dev.platform.api.manifest.PreemptionAnnotations;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import dev.platform.api.manifest.decode.KubernetesFields.TypeMeta;
import dev.platform.api.manifest.decode.PodTemplateDecoder.PodTemplate;

import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes a JobSet, batch Job or kueue Workload into what scheduling needs, as Kueue's
 * jobframework derives a Workload from a job. Only those fields are read; the rest of the object
 * is passed through to the cluster unchanged, unvalidated, and checked only for fields that its
 * type does not have ({@link KnownFields}).
 */
final class WorkloadDocumentDecoder {

    /** Kueue's limit on PodSets per Workload (WorkloadSpec.podSets MaxItems). */
    static final int MAX_POD_SETS = 8;
    /** JobSet names its Jobs and pods after itself, which must stay DNS labels. */
    static final int MAX_JOB_SET_NAME = 63;
    static final String EXCLUSIVE_TOPOLOGY_ANNOTATION = "alpha.jobset.sigs.k8s.io/exclusive-topology";
    static final String MIN_PARALLELISM_ANNOTATION = "kueue.x-k8s.io/job-min-parallelism";
    static final String MAX_EXEC_TIME_LABEL = "kueue.x-k8s.io/max-exec-time-seconds";
    static final String WORKLOAD_PRIORITY_CLASS_SOURCE = "kueue.x-k8s.io/workloadpriorityclass";
    static final String POD_PRIORITY_CLASS_SOURCE = "scheduling.k8s.io/priorityclass";
    private static final String KUEUE_V1BETA1 = "kueue.x-k8s.io/v1beta1";
    private static final List<String> RESTART_STRATEGIES = List.of("Recreate", "BlockingRecreate");
    private static final String SUSPENSION_IGNORED = "the platform controls suspension; ignored";

    WorkloadManifest decode(FieldCursor root, TypeMeta type, String defaultNamespace) {
        root.passThrough();
        KnownFields.WORKLOADS.check(root.value(), schemaType(type), "", root.findings());
        ObjectMeta metadata = KubernetesFields.objectMeta(root, type.kind(), defaultNamespace);
        priorityBoost(metadata, root.findings());
        lastCheckpoint(metadata, root.findings());
        FieldCursor spec = root.requiredObject("spec");
        Map<String, Object> manifest = jsonTree(root);
        return switch (type.kind()) {
            case JOB_SET -> jobSet(type, metadata, spec, manifest, root);
            case JOB -> job(type, metadata, spec, manifest, root);
            case WORKLOAD -> workload(type, metadata, spec, manifest);
            default -> throw new IllegalArgumentException("not a workload kind: " + type.kind());
        };
    }

    /** The type of {@code workload-fields.txt} a document of this kind and apiVersion is. */
    private static String schemaType(TypeMeta type) {
        return switch (type.kind()) {
            case JOB_SET -> "JobSet";
            case JOB -> "Job";
            case WORKLOAD -> KUEUE_V1BETA1.equals(type.apiVersion()) ? "WorkloadV1beta1" : "WorkloadV1beta2";
            default -> throw new IllegalArgumentException("not a workload kind: " + type.kind());
        };
    }

    private WorkloadManifest jobSet(TypeMeta type, ObjectMeta metadata, FieldCursor spec, Map<String, Object> manifest,
                                    FieldCursor root) {
        if (metadata.name() != null && metadata.name().length() > MAX_JOB_SET_NAME) {
            root.error("metadata.name", "'" + metadata.name() + "' is longer than " + MAX_JOB_SET_NAME
                    + " characters, JobSet's limit (its Jobs and pods are named after it)");
        }
        List<PodSetSpec> podSets = new ArrayList<>();
        String priorityClassName = null;
        Integer maxRestarts = null;
        String restartStrategy = null;
        boolean suspend = false;
        if (spec != null) {
            List<FieldCursor> replicatedJobs = spec.objects("replicatedJobs");
            if (replicatedJobs.isEmpty()) {
                spec.error("replicatedJobs", spec.has("replicatedJobs") ? "must have at least one replicated job"
                        : "required");
            }
            tooManyPodSets(spec, "replicatedJobs", replicatedJobs.size());
            Map<String, String> seenAt = new HashMap<>();
            for (FieldCursor replicatedJob : replicatedJobs) {
                String name = replicatedJob.requiredName("name", KubernetesNames::labelProblem);
                int replicas = count(replicatedJob, "replicas");
                if (name != null) {
                    String earlier = seenAt.putIfAbsent(name, replicatedJob.path());
                    if (earlier != null) {
                        replicatedJob.error("name", "replicated job '" + name + "' is already defined at " + earlier
                                + "; names must be unique");
                    }
                    generatedJobNameProblem(replicatedJob, metadata.name(), name, replicas);
                }
                FieldCursor jobTemplate = replicatedJob.requiredObject("template");
                FieldCursor jobSpec = jobTemplate == null ? null : jobTemplate.requiredObject("spec");
                JobPods pods = jobPods(jobSpec, "the JobSet's own metadata");
                if (priorityClassName == null) {
                    priorityClassName = pods.template().priorityClassName();
                }
                long count = (long) replicas * pods.perReplica();
                if (count > Integer.MAX_VALUE) {
                    replicatedJob.error("replicas", "replicas x pods per replica is " + count + "; at most "
                            + Integer.MAX_VALUE);
                }
                requestsFit(replicatedJob, "replicas", count, pods.template());
                podSets.add(podSet(name, (int) Math.min(count, Integer.MAX_VALUE), null, pods.template(), replicas,
                        pods.perReplica()));
            }
            FieldCursor failurePolicy = spec.object("failurePolicy");
            if (failurePolicy != null) {
                maxRestarts = nonNegative(failurePolicy, "maxRestarts");
                restartStrategy = failurePolicy.oneOf("restartStrategy", RESTART_STRATEGIES);
            }
            suspend = suspend(spec);
        }
        String exclusiveTopology = metadata.annotations().get(EXCLUSIVE_TOPOLOGY_ANNOTATION);
        if (exclusiveTopology != null) {
            KubernetesNames.qualifiedNameProblem(exclusiveTopology).ifPresent(problem -> root.error(
                    "metadata.annotations." + EXCLUSIVE_TOPOLOGY_ANNOTATION, "must name a node label: " + problem));
        }
        return new WorkloadManifest(Kind.JOB_SET, type.apiVersion(), metadata, queueName(metadata, root.findings()),
                workloadPriorityClass(metadata, root.findings()), priorityClassName, null, podSets, exclusiveTopology,
                maxRestarts, restartStrategy, suspend, maxExecTime(metadata, root.findings()), true, manifest);
    }

    /** JobSet's webhook: the longest Job name it will generate, {@code <jobset>-<replicatedJob>-<index>}, must be a DNS label. */
    private static void generatedJobNameProblem(FieldCursor replicatedJob, String jobSetName, String name, int replicas) {
        if (jobSetName == null) {
            return;
        }
        String longest = jobSetName + "-" + name + "-" + Math.max(replicas - 1, 0);
        if (longest.length() > MAX_JOB_SET_NAME) {
            replicatedJob.error("name", "the Job names generated for it ('" + longest + "') exceed "
                    + MAX_JOB_SET_NAME + " characters; shorten the JobSet or replicated job name");
        }
    }

    private WorkloadManifest job(TypeMeta type, ObjectMeta metadata, FieldCursor spec, Map<String, Object> manifest,
                                 FieldCursor root) {
        JobPods pods = jobPods(spec, "the Job's own metadata");
        Integer minCount = minParallelism(metadata, root.findings(), pods.perReplica());
        boolean suspend = spec != null && suspend(spec);
        if (spec != null) {
            requestsFit(spec, "parallelism", pods.perReplica(), pods.template());
        }
        PodSetSpec main = podSet("main", pods.perReplica(), minCount, pods.template(), 1, pods.perReplica());
        return new WorkloadManifest(Kind.JOB, type.apiVersion(), metadata, queueName(metadata, root.findings()),
                workloadPriorityClass(metadata, root.findings()), pods.template().priorityClassName(), null, List.of(main),
                null, null, null, suspend, maxExecTime(metadata, root.findings()), true, manifest);
    }

    /**
     * Kueue copies this label of a job into its Workload's spec.maximumExecutionTimeSeconds: a positive number of
     * seconds, counted from admission.
     */
    private static Integer maxExecTime(ObjectMeta metadata, Findings findings) {
        String text = metadata.labels().get(MAX_EXEC_TIME_LABEL);
        return text == null ? null : integer(text, "metadata.labels." + MAX_EXEC_TIME_LABEL, findings, 1,
                Integer.MAX_VALUE, "a positive number of seconds");
    }

    /** An integer label or annotation from {@code min} to {@code max}; else an error at {@code path}, and null. */
    private static Integer integer(String text, String path, Findings findings, int min, int max, String range) {
        try {
            int value = Integer.parseInt(text);
            if (value < min || value > max) {
                findings.error(path, value + " is out of range; must be " + range);
                return null;
            }
            return value;
        } catch (NumberFormatException e) {
            findings.error(path, "'" + text + "' is not an integer");
            return null;
        }
    }

    /** Kueue's priority boost: an integer added to the workload's priority, within a priority's range. */
    private static void priorityBoost(ObjectMeta metadata, Findings findings) {
        String text = metadata.annotations().get(PreemptionAnnotations.PRIORITY_BOOST);
        if (text != null) {
            integer(text, "metadata.annotations." + PreemptionAnnotations.PRIORITY_BOOST, findings,
                    -PreemptionAnnotations.MAX_PRIORITY_BOOST, PreemptionAnnotations.MAX_PRIORITY_BOOST,
                    "from -" + PreemptionAnnotations.MAX_PRIORITY_BOOST + " to " + PreemptionAnnotations.MAX_PRIORITY_BOOST);
        }
    }

    /** When the workload last wrote a checkpoint: an RFC 3339 time. */
    private static void lastCheckpoint(ObjectMeta metadata, Findings findings) {
        String text = metadata.annotations().get(PreemptionAnnotations.LAST_CHECKPOINT);
        if (text != null) {
            try {
                PreemptionAnnotations.checkpointTime(text);
            } catch (java.time.format.DateTimeParseException e) {
                findings.error("metadata.annotations." + PreemptionAnnotations.LAST_CHECKPOINT,
                        "'" + text + "' is not an RFC 3339 time such as 2026-01-01T12:00:00Z");
            }
        }
    }

    /** Kueue's partial admission for Jobs: the annotation names the least parallelism the Job can run with. */
    private static Integer minParallelism(ObjectMeta metadata, Findings findings, int count) {
        String text = metadata.annotations().get(MIN_PARALLELISM_ANNOTATION);
        return text == null ? null : integer(text, "metadata.annotations." + MIN_PARALLELISM_ANNOTATION, findings, 1,
                count, "between 1 and the Job's pod count (" + count + ")");
    }

    private WorkloadManifest workload(TypeMeta type, ObjectMeta metadata, FieldCursor spec, Map<String, Object> manifest) {
        if (spec == null) {
            return new WorkloadManifest(Kind.WORKLOAD, type.apiVersion(), metadata, null, null, null, null,
                    List.of(), null, null, null, false, null, true, manifest);
        }
        List<FieldCursor> podSetNodes = spec.objects("podSets");
        if (podSetNodes.isEmpty()) {
            spec.error("podSets", spec.has("podSets") ? "must have at least one pod set" : "required");
        }
        tooManyPodSets(spec, "podSets", podSetNodes.size());
        List<PodSetSpec> podSets = new ArrayList<>();
        Map<String, String> seenAt = new HashMap<>();
        for (FieldCursor podSet : podSetNodes) {
            String name = podSet.has("name") ? podSet.name("name", KubernetesNames::labelProblem) : "main";
            if (name != null) {
                String earlier = seenAt.putIfAbsent(name, podSet.path());
                if (earlier != null) {
                    podSet.error("name", "pod set '" + name + "' is already defined at " + earlier
                            + "; names must be unique");
                }
            }
            int count = count(podSet, "count");
            Integer minCount = podSet.int32("minCount");
            if (minCount != null && (minCount < 1 || minCount > count)) {
                podSet.error("minCount", minCount + " is out of range; must be between 1 and count (" + count + ")");
                minCount = null;
            }
            PodTemplate template = PodTemplateDecoder.read(podSet, "template",
                    "the Workload's spec (queueName, priority class)");
            requestsFit(podSet, "count", count, template);
            podSets.add(podSet(name, count, minCount, template, 1, count));
        }
        String queueName = spec.name("queueName", KubernetesNames::subdomainProblem);
        WorkloadPriority priority = KUEUE_V1BETA1.equals(type.apiVersion()) ? v1beta1Priority(spec)
                : v1beta2Priority(spec);
        Integer explicitPriority = spec.int32("priority");
        Integer maximumExecutionTime = spec.int32("maximumExecutionTimeSeconds");
        if (maximumExecutionTime != null && maximumExecutionTime < 1) {
            spec.error("maximumExecutionTimeSeconds", maximumExecutionTime + " is out of range; must be at least 1");
            maximumExecutionTime = null;
        }
        boolean active = !Boolean.FALSE.equals(spec.bool("active"));
        // The label comes first, as for a job: it is what changes a Workload's priority after submission.
        String labelled = workloadPriorityClass(metadata, spec.findings());
        return new WorkloadManifest(Kind.WORKLOAD, type.apiVersion(), metadata, queueName,
                labelled != null ? labelled : priority.workloadPriorityClassName(), priority.priorityClassName(),
                explicitPriority, podSets,
                null, null, null, false, maximumExecutionTime, active, manifest);
    }

    private record WorkloadPriority(String workloadPriorityClassName, String priorityClassName) {
        static final WorkloadPriority NONE = new WorkloadPriority(null, null);
    }

    /** v1beta1: priorityClassSource says which kind of class priorityClassName names; empty means a pod PriorityClass. */
    private static WorkloadPriority v1beta1Priority(FieldCursor spec) {
        spec.ignoreWithWarning("priorityClassRef", "not a field of v1beta1 (v1beta1 names the class"
                + " spec.priorityClassName with spec.priorityClassSource)", "ignored");
        String source = spec.oneOf("priorityClassSource", List.of("", WORKLOAD_PRIORITY_CLASS_SOURCE,
                POD_PRIORITY_CLASS_SOURCE));
        String name = spec.name("priorityClassName", KubernetesNames::subdomainProblem);
        if (name == null || name.isEmpty()) {
            return WorkloadPriority.NONE;
        }
        return WORKLOAD_PRIORITY_CLASS_SOURCE.equals(source) ? new WorkloadPriority(name, null)
                : new WorkloadPriority(null, name);
    }

    /** v1beta2: priorityClassRef {group, kind, name}. */
    private static WorkloadPriority v1beta2Priority(FieldCursor spec) {
        for (String field : List.of("priorityClassSource", "priorityClassName")) {
            spec.ignoreWithWarning(field, "not a field of v1beta2 (v1beta2 names the class spec.priorityClassRef)",
                    "ignored");
        }
        FieldCursor ref = spec.object("priorityClassRef");
        if (ref == null) {
            return WorkloadPriority.NONE;
        }
        String group = ref.requiredOneOf("group", List.of("kueue.x-k8s.io", "scheduling.k8s.io"));
        String kind = ref.requiredOneOf("kind", List.of("WorkloadPriorityClass", "PriorityClass"));
        String name = ref.requiredName("name", KubernetesNames::subdomainProblem);
        if (group == null || kind == null) {
            return WorkloadPriority.NONE;
        }
        boolean workloadClass = group.equals("kueue.x-k8s.io");
        if (workloadClass != kind.equals("WorkloadPriorityClass")) {
            ref.error("kind", "group " + group + " holds " + (workloadClass ? "WorkloadPriorityClass" : "PriorityClass")
                    + " only");
            return WorkloadPriority.NONE;
        }
        return workloadClass ? new WorkloadPriority(name, null) : new WorkloadPriority(null, name);
    }

    /** The pods of one Job: min(parallelism, completions), parallelism defaulting to 1 and completions to parallelism. */
    private record JobPods(int perReplica, PodTemplate template) {
    }

    private static JobPods jobPods(FieldCursor jobSpec, String owner) {
        if (jobSpec == null) {
            return new JobPods(0, PodTemplate.NONE);
        }
        Integer parallelism = nonNegative(jobSpec, "parallelism");
        Integer completions = nonNegative(jobSpec, "completions");
        int pods = parallelism == null ? 1 : parallelism;
        if (completions != null) {
            pods = Math.min(pods, completions);
        }
        return new JobPods(pods, PodTemplateDecoder.read(jobSpec, "template", owner));
    }

    private static PodSetSpec podSet(String name, int count, Integer minCount, PodTemplate template, int replicas,
                                     int podsPerReplica) {
        return new PodSetSpec(name, count, minCount, template.requests(), template.nodeSelector(),
                template.requiredNodeAffinity(), template.tolerations(), replicas, podsPerReplica);
    }

    /**
     * A pod set's request of each resource, pod count times the pod's, and the pod's own (what the
     * scheduler adds up in thousandths, in 64 bits) stay within {@link Quantity#MAX}.
     */
    private static void requestsFit(FieldCursor owner, String countField, long count, PodTemplate template) {
        template.requests().forEach((resource, request) -> {
            if (!request.timesFits(Math.max(count, 1))) {
                owner.error(countField, count + " pod(s) requesting " + request + " of " + resource
                        + " each is more than " + Quantity.MAX_TEXT + ", the largest quantity accepted");
            }
        });
    }

    private static void tooManyPodSets(FieldCursor spec, String field, int size) {
        if (size > MAX_POD_SETS) {
            spec.error(field, "has " + size + " items; Kueue admits at most " + MAX_POD_SETS
                    + " pod sets per workload");
        }
    }

    /** A count that defaults to 1 (replicas, podSets[].count). */
    private static int count(FieldCursor node, String field) {
        Integer value = nonNegative(node, field);
        return value == null ? 1 : value;
    }

    private static Integer nonNegative(FieldCursor node, String field) {
        Integer value = node.int32(field);
        if (value != null && value < 0) {
            node.error(field, value + " is negative; must be greater than or equal to 0");
            return null;
        }
        return value;
    }

    /** The platform suspends a workload until it is admitted, whatever the submission says. */
    private static boolean suspend(FieldCursor spec) {
        Boolean suspend = spec.bool("suspend");
        if (Boolean.FALSE.equals(suspend)) {
            spec.findings().warn(spec.child("suspend"), "false on submission", SUSPENSION_IGNORED);
        }
        return Boolean.TRUE.equals(suspend);
    }

    private static String queueName(ObjectMeta metadata, Findings findings) {
        String label = metadata.labels().get(PodTemplateDecoder.QUEUE_NAME_LABEL);
        String where = label != null ? "labels" : "annotations";
        String name = label != null ? label : metadata.annotations().get(PodTemplateDecoder.QUEUE_NAME_LABEL);
        return checkedReference(name, "metadata." + where + "." + PodTemplateDecoder.QUEUE_NAME_LABEL, findings);
    }

    private static String workloadPriorityClass(ObjectMeta metadata, Findings findings) {
        String name = metadata.labels().get(PodTemplateDecoder.PRIORITY_CLASS_LABEL);
        return checkedReference(name, "metadata.labels." + PodTemplateDecoder.PRIORITY_CLASS_LABEL, findings);
    }

    private static String checkedReference(String name, String path, Findings findings) {
        if (name != null) {
            KubernetesNames.subdomainProblem(name).ifPresent(problem -> findings.error(path, problem));
        }
        return name;
    }

    /**
     * The document as a tree Jackson writes as JSON: YAML-only values (binary, sets, non-string
     * keys, infinities) become their JSON counterparts. Timestamps already read as their text.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> jsonTree(FieldCursor root) {
        return (Map<String, Object>) jsonValue(root.value());
    }

    private static Object jsonValue(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> object = new LinkedHashMap<>();
            map.forEach((k, v) -> object.put(String.valueOf(k), jsonValue(v)));
            return object;
        }
        if (value instanceof List<?> || value instanceof Set<?>) {
            List<Object> array = new ArrayList<>();
            ((Iterable<?>) value).forEach(item -> array.add(jsonValue(item)));
            return array;
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof Double d && (d.isNaN() || d.isInfinite())) {
            return d.toString();
        }
        return value;
    }
}
