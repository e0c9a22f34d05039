package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.Kind;
import dev.platform.api.manifest.LabelSelector.Requirement;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.ResourceFlavorManifest.Toleration;
import dev.platform.api.manifest.WorkloadManifest;
import dev.platform.api.manifest.WorkloadManifest.PodSetSpec;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import java.util.List;
import java.util.Map;

import static dev.platform.api.manifest.decode.KubernetesManifestParserTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

class WorkloadDecodingTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    private static final String POD_SPEC = """
                        spec:
                          containers:
                          - name: main
                            image: busybox
                            resources:
                              requests: {cpu: "1"}
            """;

    @Test
    void aJobIsOnePodSetNamedMainOfMinParallelismAndCompletions() {
        WorkloadManifest job = workload("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: sample
                  labels:
                    kueue.x-k8s.io/queue-name: user-queue
                    kueue.x-k8s.io/priority-class: high
                  annotations:
                    kueue.x-k8s.io/job-min-parallelism: "2"
                spec:
                  parallelism: 5
                  completions: 3
                  suspend: true
                  template:
                    spec:
                      priorityClassName: pod-high
                      restartPolicy: Never
                      containers:
                      - name: main
                        image: busybox
                        resources:
                          requests: {cpu: 500m, memory: 1Gi}
                """);

        assertThat(job.kind()).isEqualTo(Kind.JOB);
        assertThat(job.queueName()).isEqualTo("user-queue");
        assertThat(job.workloadPriorityClassName()).isEqualTo("high");
        assertThat(job.priorityClassName()).isEqualTo("pod-high");
        assertThat(job.suspend()).isTrue();
        assertThat(job.podSets()).singleElement().satisfies(podSet -> {
            assertThat(podSet.name()).isEqualTo("main");
            assertThat(podSet.count()).isEqualTo(3);
            assertThat(podSet.minCount()).isEqualTo(2);
            assertThat(podSet.replicas()).isEqualTo(1);
            assertThat(podSet.podsPerReplica()).isEqualTo(3);
            assertThat(podSet.requests()).containsOnly(Map.entry("cpu", Quantity.parse("500m")),
                    Map.entry("memory", Quantity.parse("1Gi")));
        });
    }

    @Test
    void jobDefaultsAreParallelismOneAndCompletionsEqualToParallelism() {
        assertThat(jobPods("")).isEqualTo(1);
        assertThat(jobPods("parallelism: 6")).isEqualTo(6);
        assertThat(jobPods("completions: 9")).isEqualTo(1);
        assertThat(jobPods("{parallelism: 4, completions: 2}")).isEqualTo(2);
        assertThat(jobPods("parallelism: 0")).isZero();
    }

    private int jobPods(String counts) {
        String spec = counts.isEmpty() ? "" : counts.startsWith("{") ? counts.substring(1, counts.length() - 1)
                .replace(", ", "\n  ") : counts;
        return workload("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec:
                  %s
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """.formatted(spec)).podSets().get(0).count();
    }

    @Test
    void minParallelismMustBeBetweenOneAndThePodCount() {
        List<ManifestError> errors = rejectedWorkload("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: j
                  annotations: {kueue.x-k8s.io/job-min-parallelism: "5"}
                spec:
                  parallelism: 4
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """);

        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("metadata.annotations.kueue.x-k8s.io/job-min-parallelism");
            assertThat(e.message()).contains("between 1 and the Job's pod count (4)");
        });
    }

    @Test
    void theMaximumExecutionTimeIsAJobLabelOrAWorkloadSpecField() {
        WorkloadManifest job = workload("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: j
                  labels: {kueue.x-k8s.io/max-exec-time-seconds: "3600"}
                spec:
                  suspend: true
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """);
        WorkloadManifest jobSet = workload("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: js
                  labels: {kueue.x-k8s.io/max-exec-time-seconds: "120"}
                spec:
                  suspend: true
                  replicatedJobs:
                  - name: w
                    template:
                      spec:
                        template:
                          spec:
                            containers: [{name: c, image: i}]
                """);
        WorkloadManifest workload = workload("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w}
                spec:
                  queueName: lq
                  maximumExecutionTimeSeconds: 600
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers: [{name: c, image: i}]
                """);
        WorkloadManifest unlimited = workload("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: u}
                spec:
                  suspend: true
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """);

        assertThat(job.maximumExecutionTimeSeconds()).isEqualTo(3600);
        assertThat(jobSet.maximumExecutionTimeSeconds()).isEqualTo(120);
        assertThat(workload.maximumExecutionTimeSeconds()).isEqualTo(600);
        assertThat(unlimited.maximumExecutionTimeSeconds()).isNull();
    }

    @Test
    void aMaximumExecutionTimeMustBeAPositiveNumberOfSeconds() {
        List<ManifestError> label = rejectedWorkload("""
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: j
                  labels: {kueue.x-k8s.io/max-exec-time-seconds: "soon"}
                spec:
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """);
        List<ManifestError> field = rejectedWorkload("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w}
                spec:
                  maximumExecutionTimeSeconds: 0
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        containers: [{name: c, image: i}]
                """);

        assertThat(label).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("metadata.labels.kueue.x-k8s.io/max-exec-time-seconds");
            assertThat(e.message()).contains("'soon' is not an integer");
        });
        assertThat(field).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.maximumExecutionTimeSeconds");
            assertThat(e.message()).contains("0 is out of range; must be at least 1");
        });
    }

    @Test
    void aV1beta1WorkloadNamesItsPriorityClassBySource() {
        WorkloadManifest workload = workload("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: w, namespace: team-a}
                spec:
                  queueName: team-a-queue
                  priorityClassSource: kueue.x-k8s.io/workloadpriorityclass
                  priorityClassName: batch-high
                  priority: 7000
                  podSets:
                  - name: driver
                    count: 1
                    template:
                      spec:
                        containers: [{name: c, image: i, resources: {requests: {cpu: "2"}}}]
                  - name: workers
                    count: 4
                    minCount: 2
                    template:
                      spec:
                        containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]
                """, "team-a");

        assertThat(workload.kind()).isEqualTo(Kind.WORKLOAD);
        assertThat(workload.queueName()).isEqualTo("team-a-queue");
        assertThat(workload.workloadPriorityClassName()).isEqualTo("batch-high");
        assertThat(workload.priorityClassName()).isNull();
        assertThat(workload.explicitPriority()).isEqualTo(7000);
        assertThat(workload.podSets()).extracting(PodSetSpec::name, PodSetSpec::count, PodSetSpec::minCount)
                .containsExactly(tuple("driver", 1, null), tuple("workers", 4, 2));
    }

    @Test
    void aV1beta1WorkloadWithoutSourceNamesAPodPriorityClass() {
        WorkloadManifest workload = workload("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Workload
                metadata: {name: w}
                spec:
                  priorityClassName: pod-high
                  podSets:
                  - template:
                      spec:
                        containers: [{name: c, image: i}]
                """);

        assertThat(workload.workloadPriorityClassName()).isNull();
        assertThat(workload.priorityClassName()).isEqualTo("pod-high");
        assertThat(workload.queueName()).isNull();
        assertThat(workload.podSets()).singleElement().satisfies(p -> {
            assertThat(p.name()).isEqualTo("main");
            assertThat(p.count()).isEqualTo(1);
            assertThat(p.requests()).isEmpty();
        });
    }

    @Test
    void aV1beta2WorkloadNamesItsPriorityClassByReferenceAndWarnsAboutTheV1beta1Fields() {
        DecodedDocument document = submitted("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w}
                spec:
                  queueName: q
                  priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: batch-high}
                  priorityClassSource: scheduling.k8s.io/priorityclass
                  priority: 100
                  podSets:
                  - name: main
                    count: 3
                    template:
                      spec:
                        containers: [{name: c, image: i, resources: {limits: {google.com/tpu: 4}}}]
                """, "team-a");
        var workload = (WorkloadManifest) document.manifest();

        assertThat(workload.workloadPriorityClassName()).isEqualTo("batch-high");
        assertThat(workload.priorityClassName()).isNull();
        assertThat(workload.explicitPriority()).isEqualTo(100);
        assertThat(workload.podSets().get(0).requests()).containsExactly(Map.entry("google.com/tpu", Quantity.of(4)));
        assertThat(document.warnings()).containsExactly(
                "spec.priorityClassSource: not a field of v1beta2 (v1beta2 names the class spec.priorityClassRef); ignored");
    }

    @Test
    void limitsStandInForMissingRequestsAndContainersAddUp() {
        PodSetSpec podSet = onePodSet("""
                          containers:
                          - name: a
                            image: i
                            resources:
                              requests: {cpu: 500m}
                              limits: {cpu: "1", memory: 2Gi}
                          - name: b
                            image: i
                            resources:
                              limits: {cpu: 1500m, google.com/tpu: 4}
                          overhead: {memory: 512Mi}
                """);

        assertThat(podSet.requests()).containsOnly(
                Map.entry("cpu", Quantity.of(2)),
                Map.entry("memory", Quantity.parse("2560Mi")),
                Map.entry("google.com/tpu", Quantity.of(4)));
    }

    @Test
    void theLargestInitContainerSetsTheFloorAndSidecarsAddToTheSum() {
        PodSetSpec podSet = onePodSet("""
                          initContainers:
                          - name: warm-cache
                            image: i
                            resources: {requests: {cpu: "3", memory: 1Gi}}
                          - name: log-shipper
                            image: i
                            restartPolicy: Always
                            resources: {requests: {cpu: 100m}}
                          containers:
                          - name: main
                            image: i
                            resources: {requests: {cpu: "1", memory: 4Gi}}
                """);

        // cpu: max(1 + 0.1 sidecar, 3 init) = 3; memory: max(4Gi, 1Gi) = 4Gi
        assertThat(podSet.requests()).containsOnly(
                Map.entry("cpu", Quantity.of(3)),
                Map.entry("memory", Quantity.parse("4Gi")));
    }

    @Test
    void nodeSelectorRequiredNodeAffinityAndTolerationsComeFromThePodTemplate() {
        PodSetSpec podSet = onePodSet("""
                          nodeSelector: {cloud.google.com/gke-tpu-topology: 2x4}
                          affinity:
                            nodeAffinity:
                              requiredDuringSchedulingIgnoredDuringExecution:
                                nodeSelectorTerms:
                                - matchExpressions:
                                  - {key: cloud.google.com/gke-nodepool, operator: In, values: [pool-a, pool-b]}
                                  - {key: gpu-count, operator: Gt, values: ["3"]}
                                - matchExpressions:
                                  - {key: spot, operator: DoesNotExist}
                              preferredDuringSchedulingIgnoredDuringExecution: []
                          tolerations:
                          - {key: google.com/tpu, operator: Exists, effect: NoSchedule}
                          containers: [{name: c, image: i}]
                """);

        assertThat(podSet.nodeSelector()).containsExactly(Map.entry("cloud.google.com/gke-tpu-topology", "2x4"));
        assertThat(podSet.requiredNodeAffinity()).containsExactly(
                List.of(new Requirement("cloud.google.com/gke-nodepool", "In", List.of("pool-a", "pool-b")),
                        new Requirement("gpu-count", "Gt", List.of("3"))),
                List.of(new Requirement("spot", "DoesNotExist", List.of())));
        assertThat(podSet.tolerations()).containsExactly(
                new Toleration("google.com/tpu", "Exists", null, "NoSchedule", null));
    }

    @Test
    void badQuantitiesAndAffinityAreErrorsAtTheirPaths() {
        List<ManifestError> errors = rejected("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: js}
                spec:
                  replicatedJobs:
                  - name: slice
                    template:
                      spec:
                        template:
                          spec:
                            affinity:
                              nodeAffinity:
                                requiredDuringSchedulingIgnoredDuringExecution:
                                  nodeSelectorTerms:
                                  - matchExpressions: [{key: n, operator: Lt, values: [a]}]
                            containers:
                            - name: c
                              image: i
                              resources:
                                requests: {cpu: 2, memory: -1Gi}
                                limits: {cpu: 1, google.com/tpu: 1.2.3}
                """);

        String pod = "spec.replicatedJobs[0].template.spec.template.spec.";
        assertThat(errors).extracting(ManifestError::path, ManifestError::message).containsExactlyInAnyOrder(
                tuple(pod + "affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]"
                        + ".matchExpressions[0].values", "must be a single integer when operator is Lt"),
                tuple(pod + "containers[0].resources.requests.memory",
                        "'-1Gi' is negative; must be greater than or equal to 0"),
                tuple(pod + "containers[0].resources.limits.google.com/tpu",
                        "'1.2.3' is not a valid quantity (expected e.g. 32, 500m, 3Gi)"),
                tuple(pod + "containers[0].resources.requests.cpu",
                        "request 2 is above the limit 1; must be less than or equal to the limit"));
    }

    @Test
    void structuralErrorsOfAllDocumentsAreCollectedWithPaths() {
        List<ManifestError> errors = rejected("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: no-jobs}
                spec: {}
                ---
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: bad-jobs}
                spec:
                  replicatedJobs:
                  - name: a
                    replicas: -1
                    template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
                  - name: a
                    template: {spec: {template: {spec: {containers: []}}}}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec:
                  parallelism: -2
                  completions: -3
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """);

        assertThat(errors).extracting(ManifestError::document, ManifestError::path).containsExactly(
                tuple(0, "spec.replicatedJobs"),
                tuple(1, "spec.replicatedJobs[0].replicas"),
                tuple(1, "spec.replicatedJobs[1].name"),
                tuple(1, "spec.replicatedJobs[1].template.spec.template.spec.containers"),
                tuple(2, "spec.parallelism"),
                tuple(2, "spec.completions"));
        assertThat(errors.get(2).message()).isEqualTo(
                "replicated job 'a' is already defined at spec.replicatedJobs[0]; names must be unique");
        assertThat(errors.get(3).message()).isEqualTo("must have at least one container");
    }

    @Test
    void moreThanEightPodSetsAreRejectedAsKueueDoes() {
        StringBuilder jobs = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            jobs.append("""
                      - name: job-%d
                        template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
                    """.formatted(i));
        }
        List<ManifestError> errors = rejected("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: wide}
                spec:
                  replicatedJobs:
                """ + jobs);

        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("spec.replicatedJobs");
            assertThat(e.message()).contains("at most 8 pod sets");
        });
    }

    @Test
    void jobSetNamesAreLimitedTo63CharactersAndFailurePolicyIsChecked() {
        List<ManifestError> errors = rejected("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: %s}
                spec:
                  failurePolicy: {maxRestarts: -1, restartStrategy: Sometimes}
                  replicatedJobs:
                  - name: s
                    template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
                """.formatted("a".repeat(64)));

        assertThat(errors).extracting(ManifestError::path).containsExactly(
                "metadata.name", "spec.replicatedJobs[0].name",
                "spec.failurePolicy.maxRestarts", "spec.failurePolicy.restartStrategy");
    }

    @Test
    void jobAndPodSpecFieldsPassThroughSilentlyButSuspendFalseAndPodTemplateKueueLabelsAreWarned() {
        DecodedDocument document = submitted("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: js
                  labels: {kueue.x-k8s.io/priority-class: batch-high}
                  creationTimestamp: 2024-05-01T10:00:00Z
                spec:
                  suspend: false
                  network: {enableDNSHostnames: true}
                  successPolicy: {operator: All}
                  replicatedJobs:
                  - name: workers
                    replicas: 3
                    dependsOn: []
                    template:
                      metadata: {labels: {team: a}}
                      spec:
                        backoffLimit: 4
                        completionMode: Indexed
                        template:
                          metadata:
                            labels: {kueue.x-k8s.io/queue-name: q}
                          spec:
                            hostNetwork: true
                            dnsPolicy: ClusterFirstWithHostNet
                            volumes: [{name: data, emptyDir: {}}]
                            containers:
                            - name: c
                              image: i
                              command: [python3, train.py]
                              env: [{name: A, value: b}]
                              ports: [{containerPort: 8471}]
                              resources: {requests: {cpu: "1"}, claims: [{name: x}]}
                """, "team-a");
        var jobSet = (WorkloadManifest) document.manifest();

        assertThat(jobSet.workloadPriorityClassName()).isEqualTo("batch-high");
        assertThat(jobSet.queueName()).isNull();
        assertThat(jobSet.suspend()).isFalse();
        assertThat(jobSet.podSets().get(0).count()).isEqualTo(3);
        assertThat(document.warnings()).containsExactly(
                "spec.replicatedJobs[0].template.spec.template.metadata.labels.kueue.x-k8s.io/queue-name: on a pod"
                        + " template this label is not read (Kueue reads it from the JobSet's own metadata); passed"
                        + " to the pods unchanged; it does not affect scheduling",
                "spec.suspend: false on submission; the platform controls suspension; ignored");
    }

    @Test
    void theManifestIsKeptAsAJsonTree() {
        WorkloadManifest jobSet = workload("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: js
                  creationTimestamp: 2024-05-01T10:00:00Z
                spec:
                  replicatedJobs:
                  - name: s
                    template: {spec: {template: {spec: {containers: [{name: c, image: i, args: [1, 0.5, true]}]}}}}
                """);

        String json = JsonMapper.builder().build().writeValueAsString(jobSet.manifest());

        assertThat(json).contains("\"creationTimestamp\":\"2024-05-01T10:00:00Z\"")
                .contains("\"args\":[1,0.5,true]");
    }

    @Test
    void aWorkloadSubmissionTakesThePathNamespaceAndRefusesAnother() {
        String job = """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j%s}
                spec:
                  template:
                    spec:
                      containers: [{name: c, image: i}]
                """;

        assertThat(submitted(job.formatted(""), "team-a").manifest().namespace()).isEqualTo("team-a");
        assertThat(submitted(job.formatted(", namespace: team-a"), "team-a").manifest().namespace()).isEqualTo("team-a");
        List<ManifestError> errors = rejectedSubmission(job.formatted(", namespace: team-b"), "team-a");
        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.document()).isZero();
            assertThat(e.path()).isEqualTo("metadata.namespace");
            assertThat(e.message()).contains("'team-b'").contains("'team-a'");
        });
    }

    @Test
    void aWorkloadSubmissionIsExactlyOneWorkloadDocument() {
        String job = """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec: {template: {spec: {containers: [{name: c, image: i}]}}}
                """;

        assertThat(rejectedSubmission(job + "---\n" + job.replace("name: j", "name: k"), "default"))
                .singleElement().satisfies(e -> {
                    assertThat(e.document()).isEqualTo(-1);
                    assertThat(e.message()).contains("exactly one document").endsWith("found 2");
                });
        assertThat(rejectedSubmission("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: f}
                """, "default")).singleElement().satisfies(e -> {
                    assertThat(e.path()).isEqualTo("kind");
                    assertThat(e.message()).contains("configuration kind").contains("POST /api/v1/manifests");
                });
    }

    @Test
    void manifestsMayMixConfigurationAndWorkloadsAndWorkloadsDefaultToTheDefaultNamespace() {
        List<DecodedDocument> documents = parser.parse(bytes("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: tpu}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec: {template: {spec: {containers: [{name: c, image: i}]}}}
                ---
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j, namespace: other}
                spec: {template: {spec: {containers: [{name: c, image: i}]}}}
                """), Format.YAML);

        assertThat(documents).extracting(d -> d.manifest().kind(), d -> d.manifest().namespace())
                .containsExactly(tuple(Kind.RESOURCE_FLAVOR, null), tuple(Kind.JOB, "default"), tuple(Kind.JOB, "other"));
        assertThat(documents.get(0).manifest()).isInstanceOf(ResourceFlavorManifest.class);
    }

    @Test
    void theSameWorkloadTwiceInOneRequestIsRejected() {
        String job = """
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec: {template: {spec: {containers: [{name: c, image: i}]}}}
                """;

        assertThat(rejected(job + "---\n" + job)).singleElement().satisfies(e -> {
            assertThat(e.document()).isEqualTo(1);
            assertThat(e.path()).isEqualTo("metadata.name");
            assertThat(e.message()).contains("Job 'default/j' is already defined by document 0");
        });
    }

    private PodSetSpec onePodSet(String podSpecBody) {
        return workload("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec:
                  template:
                    spec:
                """ + podSpecBody).podSets().get(0);
    }

    private WorkloadManifest workload(String yaml) {
        return workload(yaml, "default");
    }

    private WorkloadManifest workload(String yaml, String namespace) {
        DecodedDocument document = submitted(yaml, namespace);
        assertThat(document.warnings()).as("warnings").isEmpty();
        return (WorkloadManifest) document.manifest();
    }

    private DecodedDocument submitted(String yaml, String namespace) {
        return parser.parseWorkload(bytes(yaml), Format.YAML, namespace, FieldValidation.Strict);
    }

    private List<ManifestError> rejectedSubmission(String yaml, String namespace) {
        var rejected = catchThrowableOfType(ManifestRejectedException.class, () -> submitted(yaml, namespace));
        assertThat(rejected).as("rejected").isNotNull();
        assertThat(rejected.rejection()).isEqualTo(Cause.INVALID);
        return rejected.errors();
    }

    private List<ManifestError> rejectedWorkload(String yaml) {
        return rejectedSubmission(yaml, "default");
    }

    private List<ManifestError> rejected(String yaml) {
        var rejected = catchThrowableOfType(ManifestRejectedException.class,
                () -> parser.parse(bytes(yaml), Format.YAML));
        assertThat(rejected).as("rejected").isNotNull();
        assertThat(rejected.rejection()).as("cause of %s", rejected.errors()).isEqualTo(Cause.INVALID);
        return rejected.errors();
    }
}
