package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FieldValidation;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import dev.platform.api.manifest.WorkloadManifest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.platform.api.manifest.decode.KubernetesManifestParserTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

/** Kubernetes' server-side field validation: unknown fields refused (Strict), warned about (Warn) or ignored. */
class FieldValidationTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    /** A JobSet with a misspelt field at each level, from the spec down to a container. */
    private static final String TYPOS = """
            apiVersion: jobset.x-k8s.io/v1alpha2
            kind: JobSet
            metadata:
              name: typos
              lables: {team: a}
            spec:
              failurePolicy: {maxRestart: 3}
              replicatedJobs:
              - name: slice
                replica: 2
                template:
                  spec:
                    paralelism: 4
                    completions: 4
                    template:
                      spec:
                        nodeselector: {cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice}
                        containers:
                        - name: jax
                          image: python:3.12
                          comand: [python3, train.py]
                          resources:
                            limit: {google.com/tpu: 4}
              wibble: true
            """;

    @Test
    void strictRefusesEveryUnknownFieldAtItsFullPathWithTheNearestKnownName() {
        List<ManifestError> errors = rejectedSubmission(TYPOS, FieldValidation.Strict);

        assertThat(errors).extracting(ManifestError::path, ManifestError::message).containsExactly(
                tuple("metadata.lables", "unknown field \"metadata.lables\"; did you mean \"labels\"?"),
                tuple("spec.failurePolicy.maxRestart",
                        "unknown field \"spec.failurePolicy.maxRestart\"; did you mean \"maxRestarts\"?"),
                tuple("spec.replicatedJobs[0].replica",
                        "unknown field \"spec.replicatedJobs[0].replica\"; did you mean \"replicas\"?"),
                tuple("spec.replicatedJobs[0].template.spec.paralelism",
                        "unknown field \"spec.replicatedJobs[0].template.spec.paralelism\"; did you mean \"parallelism\"?"),
                tuple("spec.replicatedJobs[0].template.spec.template.spec.nodeselector",
                        "unknown field \"spec.replicatedJobs[0].template.spec.template.spec.nodeselector\";"
                                + " did you mean \"nodeSelector\"?"),
                tuple("spec.replicatedJobs[0].template.spec.template.spec.containers[0].comand",
                        "unknown field \"spec.replicatedJobs[0].template.spec.template.spec.containers[0].comand\";"
                                + " did you mean \"command\"?"),
                tuple("spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources.limit",
                        "unknown field \"spec.replicatedJobs[0].template.spec.template.spec.containers[0].resources"
                                + ".limit\"; did you mean \"limits\"?"),
                tuple("spec.wibble", "unknown field \"spec.wibble\""));
    }

    @Test
    void theReplicatedJobTypoIsNamedBesideTheMissingRequiredField() {
        List<ManifestError> errors = rejectedSubmission("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata: {name: one}
                spec:
                  replicatedJob:
                  - name: slice
                    template: {spec: {template: {spec: {containers: [{name: c, image: i}]}}}}
                """, FieldValidation.Strict);

        assertThat(errors).extracting(ManifestError::path, ManifestError::message).containsExactlyInAnyOrder(
                tuple("spec.replicatedJobs", "required"),
                tuple("spec.replicatedJob", "unknown field \"spec.replicatedJob\"; did you mean \"replicatedJobs\"?"));
    }

    @Test
    void warnAcceptsWithOneWarningPerUnknownFieldAndTheTypoHasNoEffect() {
        DecodedDocument document = submitted(TYPOS, FieldValidation.Warn);

        assertThat(document.warnings()).hasSize(8).contains(
                "unknown field \"spec.replicatedJobs[0].template.spec.paralelism\"; did you mean \"parallelism\"?",
                "unknown field \"spec.wibble\"");
        // parallelism defaults to 1 and replicas to 1: the pods a misspelt manifest gets, as in Kubernetes
        assertThat(((WorkloadManifest) document.manifest()).podSets().get(0).count()).isEqualTo(1);
    }

    @Test
    void ignoreAcceptsWithoutAWord() {
        DecodedDocument document = submitted(TYPOS, FieldValidation.Ignore);

        assertThat(document.warnings()).isEmpty();
        assertThat(document.manifest().name()).isEqualTo("typos");
    }

    @Test
    void openMapsAndUncheckedTypesTakeAnyKey() {
        DecodedDocument document = submitted("""
                apiVersion: jobset.x-k8s.io/v1alpha2
                kind: JobSet
                metadata:
                  name: open
                  labels: {anything.example.com/goes: here}
                  annotations: {whatever-key: x}
                  managedFields: [{manager: kubectl, fieldsV1: {"f:spec": {}}}]
                spec:
                  replicatedJobs:
                  - name: slice
                    template:
                      metadata: {labels: {any: key}}
                      spec:
                        selector: {matchLabels: {free: form}}
                        template:
                          spec:
                            nodeSelector: {my.label/x: y}
                            overhead: {example.com/thing: 1}
                            volumes:
                            - name: data
                              csi: {driver: d, volumeAttributes: {anyAttribute: v}, futureCsiField: 1}
                            containers:
                            - name: c
                              image: i
                              resources:
                                limits: {example.com/gadget: 2}
                                requests: {cpu: "1"}
                status: {whatever: {the: cluster, says: 1}}
                """, FieldValidation.Strict);

        assertThat(document.warnings()).isEmpty();
    }

    @Test
    void aJobAndAWorkloadAreCheckedDownToTheirContainers() {
        List<ManifestError> job = rejectedSubmission("""
                apiVersion: batch/v1
                kind: Job
                metadata: {name: j}
                spec:
                  paralelism: 4
                  template:
                    spec:
                      containers: [{name: c, image: i, imagePullPolicy: Always, imagepullpolicy: Never}]
                """, FieldValidation.Strict);
        List<ManifestError> workload = rejectedSubmission("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: w}
                spec:
                  queueName: q
                  podSets:
                  - name: main
                    count: 2
                    cont: 3
                    template: {spec: {containers: [{name: c, image: i, args: [a], argz: [b]}]}}
                """, FieldValidation.Strict);

        assertThat(job).extracting(ManifestError::path).containsExactly("spec.paralelism",
                "spec.template.spec.containers[0].imagepullpolicy");
        assertThat(workload).extracting(ManifestError::path, ManifestError::message).containsExactly(
                tuple("spec.podSets[0].cont", "unknown field \"spec.podSets[0].cont\"; did you mean \"count\"?"),
                tuple("spec.podSets[0].template.spec.containers[0].argz",
                        "unknown field \"spec.podSets[0].template.spec.containers[0].argz\"; did you mean \"args\"?"));
    }

    @Test
    void aTypoIsRefusedWhereverAWorkloadIsAppliedUnlessAsked() {
        List<ManifestError> errors = rejected(() -> parser.parse(bytes(TYPOS), Format.YAML));

        assertThat(errors).hasSize(8);
        assertThat(parser.parse(bytes(TYPOS), Format.YAML, FieldValidation.Warn)).singleElement()
                .satisfies(document -> assertThat(document.warnings()).hasSize(8));
    }

    @Test
    void aRefusedConfigurationNamesItsMisspeltFieldBesideTheMissingOneUnderTheDefaultValidation() {
        List<ManifestError> errors = rejected(() -> parser.parse(bytes("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  resourceGroups:
                  - coveredResources: [google.com/tpu]
                    flavors:
                    - name: tpu
                      resources:
                      - name: google.com/tpu
                        nominalQuta: 32
                """), Format.YAML));

        assertThat(errors).extracting(ManifestError::path, ManifestError::message).containsExactly(
                tuple("spec.resourceGroups[0].flavors[0].resources[0].nominalQuota", "required"),
                tuple("spec.resourceGroups[0].flavors[0].resources[0].nominalQuta",
                        "unknown field \"spec.resourceGroups[0].flavors[0].resources[0].nominalQuta\";"
                                + " did you mean \"nominalQuota\"?"));
    }

    @Test
    void configurationWarnsByDefaultAndIsRefusedOnlyWhenStrictIsAsked() {
        String queue = """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: q, namespace: team-a, lables: {team: a}}
                spec: {clusterQueue: cq, stopPolicyy: Hold}
                """;

        assertThat(parser.parse(bytes(queue), Format.YAML)).singleElement().satisfies(document ->
                assertThat(document.warnings()).containsExactly(
                        "unknown field \"metadata.lables\"; did you mean \"labels\"?",
                        "unknown field \"spec.stopPolicyy\"; did you mean \"stopPolicy\"?"));
        assertThat(rejected(() -> parser.parse(bytes(queue), Format.YAML, FieldValidation.Strict)))
                .extracting(ManifestError::path).containsExactly("metadata.lables", "spec.stopPolicyy");
        assertThat(parser.parse(bytes(queue), Format.YAML, FieldValidation.Ignore)).singleElement()
                .satisfies(document -> assertThat(document.warnings()).isEmpty());
    }

    @Test
    void theSeedManifestsPassStrictWithTheirWarningsAlone() {
        for (String seed : List.of("seed-kueue.yaml", "seed-hotswap.yaml", "seed-kueue-and-hotswap.yaml")) {
            List<DecodedDocument> strict = parser.parse(SeedManifestsTest.seed(seed), Format.YAML, FieldValidation.Strict);
            List<DecodedDocument> byDefault = parser.parse(SeedManifestsTest.seed(seed), Format.YAML);

            assertThat(strict).as(seed).extracting(DecodedDocument::warnings)
                    .isEqualTo(byDefault.stream().map(DecodedDocument::warnings).toList())
                    .allSatisfy(warnings -> assertThat(warnings).noneMatch(w -> w.contains("unknown field")));
        }
    }

    @Test
    void aSuggestionIsOnlyMadeForANearName() {
        assertThat(NearestName.among("paralelism", List.of("completions", "parallelism"))).contains("parallelism");
        assertThat(NearestName.among("NodeSelector", List.of("nodeName", "nodeSelector"))).contains("nodeSelector");
        assertThat(NearestName.among("foo", List.of("os", "name"))).isEmpty();
        assertThat(NearestName.among("wibble", List.of("suspend", "network"))).isEmpty();
    }

    @Test
    void aFieldsFileNamingAnUndeclaredTypeIsRefused() {
        assertThatThrownBy(() -> KnownFields.parse("Pod: spec:PodSpec\n"))
                .hasMessageContaining("Pod.spec names the type PodSpec, which is not declared");
        KnownFields fields = KnownFields.parse("""
                Pod: metadata:* spec:Spec
                Spec: containers:Container
                    nodeName
                Container: name
                """);
        assertThat(fields.fieldsOf("Spec")).containsExactly("containers", "nodeName");
        Findings findings = new Findings(0);
        fields.check(Map.of("spec", Map.of("containers", List.of(Map.of("nam", "c")))), "Pod", "", findings);
        findings.reportUnknownFields(FieldValidation.Strict);
        assertThat(findings.errors()).extracting(ManifestError::path).containsExactly("spec.containers[0].nam");
    }

    private DecodedDocument submitted(String yaml, FieldValidation validation) {
        return parser.parseWorkload(bytes(yaml), Format.YAML, "team-a", validation);
    }

    private List<ManifestError> rejectedSubmission(String yaml, FieldValidation validation) {
        return rejected(() -> submitted(yaml, validation));
    }

    private static List<ManifestError> rejected(Runnable parse) {
        var rejected = catchThrowableOfType(ManifestRejectedException.class, parse::run);
        assertThat(rejected).as("rejected").isNotNull();
        assertThat(rejected.rejection()).isEqualTo(Cause.INVALID);
        return rejected.errors();
    }
}
