package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.ClusterQueueManifest.AdmissionMode;
import dev.platform.api.manifest.ClusterQueueManifest.FungibilityPolicy;
import dev.platform.api.manifest.ClusterQueueManifest.FungibilityPreference;
import dev.platform.api.manifest.CohortManifest;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.FairSharing;
import dev.platform.api.manifest.LabelSelector;
import dev.platform.api.manifest.LocalQueueManifest;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ManifestRejectedException.Cause;
import dev.platform.api.manifest.NamespaceManifest;
import dev.platform.api.manifest.PriorityClassManifest;
import dev.platform.api.manifest.Quantity;
import dev.platform.api.manifest.ResourceFlavorManifest;
import dev.platform.api.manifest.WorkloadPriorityClassManifest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.groups.Tuple.tuple;

class KubernetesManifestParserTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    private static final String GROUP = """
              resourceGroups:
              - coveredResources: [cpu]
                flavors:
                - name: default
                  resources:
                  - name: cpu
                    nominalQuota: 8
                    borrowingLimit: 2
                    lendingLimit: 500m
            """;

    @Test
    void v1beta1NamesTheCohortCohortAndSpellsMayStopSearchBorrowOrPreempt() {
        var queue = (ClusterQueueManifest) single("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: team-a}
                spec:
                  cohort: research
                  flavorFungibility: {whenCanBorrow: Borrow, whenCanPreempt: Preempt}
                """ + GROUP).manifest();

        assertThat(queue.cohort()).isEqualTo("research");
        assertThat(queue.flavorFungibility().whenCanBorrow()).isEqualTo(FungibilityPolicy.MayStopSearch);
        assertThat(queue.flavorFungibility().whenCanPreempt()).isEqualTo(FungibilityPolicy.MayStopSearch);
        var quota = queue.resourceGroups().get(0).flavors().get(0).resources().get(0);
        assertThat(quota.borrowingLimit()).isEqualTo(Quantity.of(2));
        assertThat(quota.lendingLimit()).isEqualTo(Quantity.parse("0.5"));
    }

    @Test
    void v1beta2NamesTheCohortCohortNameAndWarnsAboutTheOtherSpelling() {
        DecodedDocument document = single("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: team-a}
                spec:
                  cohortName: research
                  cohort: ignored-one
                  flavorFungibility:
                    whenCanBorrow: TryNextFlavor
                    whenCanPreempt: TryNextFlavor
                    preference: PreemptionOverBorrowing
                """ + GROUP);
        var queue = (ClusterQueueManifest) document.manifest();

        assertThat(queue.cohort()).isEqualTo("research");
        assertThat(queue.flavorFungibility().whenCanBorrow()).isEqualTo(FungibilityPolicy.TryNextFlavor);
        assertThat(queue.flavorFungibility().preference()).isEqualTo(FungibilityPreference.PreemptionOverBorrowing);
        assertThat(document.warnings()).containsExactly(
                "spec.cohort: not a field of this apiVersion (v1beta2 names the cohort spec.cohortName); ignored");
    }

    @Test
    void v1beta2WithTheV1beta1CohortFieldHasNoCohortSoItsLimitsAreRejected() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: team-a}
                spec:
                  cohort: research
                """ + GROUP, Cause.INVALID);

        assertThat(errors).extracting(ManifestError::path).containsExactly(
                "spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit",
                "spec.resourceGroups[0].flavors[0].resources[0].lendingLimit");
    }

    @Test
    void preferenceNeedsTryNextFlavorForBothPoliciesAsInKueue() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: team-a}
                spec:
                  flavorFungibility: {preference: BorrowingOverPreemption}
                """, Cause.INVALID);

        assertThat(errors).singleElement().extracting(ManifestError::path).isEqualTo("spec.flavorFungibility.preference");
    }

    @Test
    void aCohortHasAParentAndQuotaOfItsOwnAndMayLendMoreThanItsNominalQuota() {
        var cohort = (CohortManifest) single("""
                apiVersion: kueue.x-k8s.io/v1alpha1
                kind: Cohort
                metadata: {name: research}
                spec:
                  parentName: company
                  fairSharing: {weight: 2}
                  resourceGroups:
                  - coveredResources: [google.com/tpu]
                    flavors:
                    - name: tpu-v6e-slice
                      resources:
                      - name: google.com/tpu
                        nominalQuota: 16
                        lendingLimit: 32
                """).manifest();

        assertThat(cohort.parentName()).isEqualTo("company");
        assertThat(cohort.fairSharing()).isEqualTo(new FairSharing(Quantity.of(2)));
        assertThat(cohort.resourceGroups().get(0).flavors().get(0).resources().get(0).lendingLimit())
                .isEqualTo(Quantity.of(32));
    }

    @Test
    void aCohortWithoutParentCannotBorrow() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: Cohort
                metadata: {name: research}
                spec:
                """ + GROUP, Cause.INVALID);

        assertThat(errors).extracting(ManifestError::message)
                .allSatisfy(m -> assertThat(m).startsWith("must not be set when parentName is empty"))
                .hasSize(2);
    }

    @Test
    void kueueDefaultsApplyWhenFieldsAreLeftOut() {
        var queue = (ClusterQueueManifest) single("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: empty}
                """).manifest();

        assertThat(queue.resourceGroups()).isEmpty();
        assertThat(queue.cohort()).isNull();
        assertThat(queue.queueingStrategy()).isEqualTo(ClusterQueueManifest.QueueingStrategy.BestEffortFIFO);
        assertThat(queue.namespaceSelector()).isEqualTo(LabelSelector.EVERYTHING);
        assertThat(queue.flavorFungibility()).isEqualTo(ClusterQueueManifest.FlavorFungibility.DEFAULT);
        assertThat(queue.preemption()).isEqualTo(ClusterQueueManifest.Preemption.DEFAULT);
        assertThat(queue.fairSharing()).isEqualTo(FairSharing.DEFAULT);
        assertThat(queue.stopPolicy()).isEqualTo(ClusterQueueManifest.StopPolicy.None);
    }

    @Test
    void anAdmissionScopeNamesItsModeAndALocalQueueItsFairSharingWeight() {
        List<DecodedDocument> docs = parse("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: shared}
                spec:
                  admissionScope: {admissionMode: UsageBasedAdmissionFairSharing}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: LocalQueue
                metadata: {name: team-a, namespace: a}
                spec: {clusterQueue: shared, fairSharing: {weight: "2"}}
                """);

        var queue = (ClusterQueueManifest) docs.get(0).manifest();
        var local = (LocalQueueManifest) docs.get(1).manifest();
        assertThat(queue.admissionScope().admissionMode()).isEqualTo(AdmissionMode.UsageBasedAdmissionFairSharing);
        assertThat(docs.get(0).warnings()).isEmpty();
        assertThat(local.fairSharing().weight()).isEqualTo(Quantity.of(2));
    }

    @Test
    void anAdmissionScopeWithoutAKnownModeIsRejectedAsKueueRequiresOne() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: a}
                spec:
                  admissionScope: {}
                ---
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: b}
                spec:
                  admissionScope: {admissionMode: Usage}
                """, Cause.INVALID);

        assertThat(errors).extracting(ManifestError::document, ManifestError::path).containsExactly(
                tuple(0, "spec.admissionScope.admissionMode"), tuple(1, "spec.admissionScope.admissionMode"));
    }

    @Test
    void aLocalQueueWithoutNamespaceIsInDefaultAsWithKubectl() {
        var queue = (LocalQueueManifest) single("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: lq}
                spec: {clusterQueue: team-a, stopPolicy: Hold}
                """).manifest();

        assertThat(queue.namespace()).isEqualTo("default");
        assertThat(queue.stopPolicy()).isEqualTo(ClusterQueueManifest.StopPolicy.Hold);
    }

    @Test
    void aFlavorKeepsItsLabelsTaintsTolerationsAndTopology() {
        var flavor = (ResourceFlavorManifest) single("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ResourceFlavor
                metadata: {name: tpu}
                spec:
                  nodeLabels: {cloud.google.com/gke-tpu-accelerator: tpu-v6e-slice}
                  nodeTaints: [{key: google.com/tpu, value: present, effect: NoSchedule}]
                  tolerations: [{key: spot, operator: Exists, effect: NoExecute, tolerationSeconds: 30}]
                  topologyName: tpu-topology
                """).manifest();

        assertThat(flavor.nodeTaints()).containsExactly(new ResourceFlavorManifest.Taint("google.com/tpu", "present", "NoSchedule"));
        assertThat(flavor.tolerations()).containsExactly(
                new ResourceFlavorManifest.Toleration("spot", "Exists", null, "NoExecute", 30L));
        assertThat(flavor.topologyName()).isEqualTo("tpu-topology");
    }

    @Test
    void priorityClassesOfBothKindsAndTheGlobalDefaultWarning() {
        List<DecodedDocument> documents = parse("""
                apiVersion: scheduling.k8s.io/v1
                kind: PriorityClass
                metadata: {name: high}
                value: 1000000000
                globalDefault: true
                preemptionPolicy: Never
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: WorkloadPriorityClass
                metadata: {name: sample}
                value: -5
                description: below everything
                """);

        assertThat(documents.get(0).manifest())
                .isEqualTo(new PriorityClassManifest("high", 1_000_000_000, true, null, "Never"));
        assertThat(documents.get(0).warnings()).singleElement().asString()
                .startsWith("globalDefault: true is recorded but not acted on; ");
        assertThat(documents.get(1).manifest())
                .isEqualTo(new WorkloadPriorityClassManifest("sample", -5, "below everything"));
    }

    @Test
    void unknownFieldsAreWarnedAtTheirFullPathWhileKubectlMetadataAndStatusPassSilently() {
        DecodedDocument document = single("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata:
                  name: team-a
                  uid: 6b1c2f4e-0000-4000-8000-000000000000
                  resourceVersion: "12345"
                  creationTimestamp: 2024-05-01T10:00:00Z
                  managedFields: [{manager: kubectl}]
                  labels: {team: a}
                spec:
                  admissionChecks: [prov]
                  resourceGroups:
                  - coveredResources: [cpu]
                    colour: blue
                    flavors:
                    - name: default
                      resources:
                      - name: cpu
                        nominalQuota: 8
                        burst: 2
                status:
                  pendingWorkloads: 3
                extra: true
                """);

        assertThat(document.warnings()).containsExactly(
                "unknown field \"extra\"",
                "unknown field \"spec.resourceGroups[0].colour\"",
                "unknown field \"spec.resourceGroups[0].flavors[0].resources[0].burst\"");
    }

    @Test
    void errorsOfAllDocumentsAreReportedTogether() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: Bad_Name}
                ---
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: ok}
                spec:
                  queueingStrategy: Random
                  stopPolicy: Later
                """, Cause.INVALID);

        assertThat(errors).extracting(ManifestError::document, ManifestError::path).containsExactly(
                tuple(0, "metadata.name"), tuple(1, "spec.queueingStrategy"), tuple(1, "spec.stopPolicy"));
    }

    @Test
    void aJsonObjectAJsonArrayAndAKubernetesListReadAlike() {
        String flavor = """
                {"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "ResourceFlavor", "metadata": {"name": "a"}}""";
        String queue = """
                {"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "LocalQueue",
                 "metadata": {"name": "b", "namespace": "team"}, "spec": {"clusterQueue": "cq"}}""";

        assertThat(names(parser.parse(bytes(flavor), Format.JSON))).containsExactly("a");
        assertThat(names(parser.parse(bytes("[" + flavor + "," + queue + "]"), Format.JSON))).containsExactly("a", "b");
        List<DecodedDocument> list = parser.parse(bytes("""
                {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [%s, %s]}"""
                .formatted(flavor, queue)), Format.JSON);
        assertThat(list).extracting(DecodedDocument::index).containsExactly(0, 1);
        assertThat(list.get(1).manifest().namespace()).isEqualTo("team");
    }

    @Test
    void aYamlListIsFlattenedAndIndexedAmongTheOtherDocuments() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: a}
                ---
                apiVersion: v1
                kind: List
                items:
                - {apiVersion: kueue.x-k8s.io/v1beta1, kind: ResourceFlavor, metadata: {name: b}}
                - {apiVersion: kueue.x-k8s.io/v1beta1, kind: ResourceFlavor, metadata: {name: C}}
                """, Cause.INVALID);

        assertThat(errors).singleElement().extracting(ManifestError::document).isEqualTo(2);
    }

    @Test
    void quantitiesWrittenAsYamlNumbersKeepTheirValue() {
        var queue = (ClusterQueueManifest) single("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: q}
                spec:
                  fairSharing: {weight: 0.5}
                  resourceGroups:
                  - coveredResources: [cpu, memory, example.com/big]
                    flavors:
                    - name: f
                      resources:
                      - {name: cpu, nominalQuota: 1.5}
                      - {name: memory, nominalQuota: 64Gi}
                      - {name: example.com/big, nominalQuota: 9223372036854775}
                """).manifest();

        var resources = queue.resourceGroups().get(0).flavors().get(0).resources();
        assertThat(resources.get(0).nominalQuota()).isEqualTo(Quantity.parse("1500m"));
        assertThat(resources.get(1).nominalQuota().value()).isEqualByComparingTo("68719476736");
        assertThat(resources.get(2).nominalQuota().value()).isEqualByComparingTo("9223372036854775");
        assertThat(queue.fairSharing().weight()).isEqualTo(Quantity.parse("500m"));
    }

    @Test
    void limitsAreConfigurable() {
        var small = new KubernetesManifestParser(new ManifestLimits(4096, 50, 64, 2));
        byte[] three = bytes("""
                {apiVersion: kueue.x-k8s.io/v1beta1, kind: ResourceFlavor, metadata: {name: a}}
                ---
                {apiVersion: kueue.x-k8s.io/v1beta1, kind: ResourceFlavor, metadata: {name: b}}
                ---
                {apiVersion: kueue.x-k8s.io/v1beta1, kind: ResourceFlavor, metadata: {name: c}}
                """);

        var rejected = catchThrowableOfType(ManifestRejectedException.class, () -> small.parse(three, Format.YAML));

        assertThat(rejected.rejection()).isEqualTo(Cause.TOO_LARGE);
        assertThat(rejected.errors()).singleElement().extracting(ManifestError::message)
                .isEqualTo("the body has more than 2 documents");
    }

    @Test
    void yamlSentAsJsonIsMalformedJsonThatSaysToSendItAsYaml() {
        byte[] yaml = bytes("apiVersion: kueue.x-k8s.io/v1beta1\nkind: ResourceFlavor\nmetadata: {name: f}\n");

        var rejected = catchThrowableOfType(ManifestRejectedException.class, () -> parser.parse(yaml, Format.JSON));

        assertThat(rejected.errors()).singleElement().extracting(ManifestError::message).asString()
                .startsWith("JSON syntax error at line 1")
                .endsWith("; the body looks like YAML: send YAML as Content-Type: application/yaml");
        var broken = catchThrowableOfType(ManifestRejectedException.class,
                () -> parser.parse(bytes("{\"kind\": }"), Format.JSON));
        assertThat(broken.errors()).singleElement().extracting(ManifestError::message).asString()
                .doesNotContain("YAML");
    }

    @Test
    void jsonWithADuplicateKeyOrTooDeepIsMalformed() {
        byte[] duplicate = bytes("{\"kind\": \"ResourceFlavor\", \"kind\": \"Cohort\"}");
        byte[] deep = bytes("{\"a\": " + "[".repeat(100) + "]".repeat(100) + "}");

        var duplicateKey = catchThrowableOfType(ManifestRejectedException.class, () -> parser.parse(duplicate, Format.JSON));
        var tooDeep = catchThrowableOfType(ManifestRejectedException.class, () -> parser.parse(deep, Format.JSON));

        assertThat(duplicateKey.rejection()).isEqualTo(Cause.MALFORMED);
        assertThat(duplicateKey.errors()).singleElement().extracting(ManifestError::message).asString()
                .startsWith("JSON syntax error at line 1").contains("Duplicate Object property \"kind\"");
        assertThat(tooDeep.rejection()).isEqualTo(Cause.MALFORMED);
        assertThat(tooDeep.errors()).singleElement().extracting(ManifestError::message)
                .isEqualTo("JSON nests deeper than 64 levels");
    }

    @Test
    void aNamespaceOnAClusterScopedKindIsIgnoredWithAWarning() {
        DecodedDocument document = single("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: rf, namespace: team-a}
                """);

        assertThat(document.manifest().namespace()).isNull();
        assertThat(document.warnings())
                .containsExactly("metadata.namespace: ResourceFlavor is cluster-scoped; namespace ignored");
    }

    @Test
    void aNamespaceIsReadForItsLabelsAndKeepsItsNameLabelAsKubernetesSetsIt() {
        DecodedDocument document = single("""
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: team-a
                  uid: 0c6c1f8e-0000-4000-8000-000000000000
                  labels: {team: ml, example.com/cost-center: "", kubernetes.io/metadata.name: team-a}
                spec:
                  finalizers: [kubernetes]
                status:
                  phase: Active
                """);

        assertThat(document.manifest()).isEqualTo(new NamespaceManifest("team-a",
                Map.of("team", "ml", "example.com/cost-center", "", "kubernetes.io/metadata.name", "team-a")));
        assertThat(document.manifest().namespace()).isNull();
        assertThat(document.warnings()).singleElement().asString().startsWith("spec: a Namespace's spec holds only");
    }

    @Test
    void aNamespaceWithoutLabelsStillHasItsNameLabelAndAWrongOneIsReplacedWithAWarning() {
        List<DecodedDocument> documents = parse("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: plain}
                ---
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: team-b
                  labels: {kubernetes.io/metadata.name: team-a}
                """);

        assertThat(documents.get(0).manifest())
                .isEqualTo(new NamespaceManifest("plain", Map.of("kubernetes.io/metadata.name", "plain")));
        assertThat(documents.get(0).warnings()).isEmpty();
        assertThat(documents.get(1).manifest())
                .isEqualTo(new NamespaceManifest("team-b", Map.of("kubernetes.io/metadata.name", "team-b")));
        assertThat(documents.get(1).warnings()).containsExactly("metadata.labels.kubernetes.io/metadata.name: 'team-a'"
                + " differs from the name; Kubernetes sets this label to the namespace's name; set to 'team-b'");
    }

    @Test
    void aNamespaceAllowsPriorityOnlyModeWithOneValueOfItsLabelAndNoOther() {
        DecodedDocument allowed = single("""
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: team-a
                  labels: {platform.dev/priority-only: allowed}
                """);
        List<ManifestError> errors = rejected("""
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: team-b
                  labels: {platform.dev/priority-only: "true"}
                """, Cause.INVALID);

        assertThat(allowed.manifest()).isEqualTo(new NamespaceManifest("team-a",
                Map.of("platform.dev/priority-only", "allowed", "kubernetes.io/metadata.name", "team-a")));
        assertThat(errors).singleElement().satisfies(error -> {
            assertThat(error.path()).isEqualTo("metadata.labels.platform.dev/priority-only");
            assertThat(error.message()).startsWith("'true' is not a value of this label: 'allowed' lets");
        });
    }

    @Test
    void aNamespaceNameIsADnsLabelAndItsLabelsFollowKubernetesRules() {
        String longPrefix = "a".repeat(254);
        List<ManifestError> errors = rejected("""
                apiVersion: v1
                kind: Namespace
                metadata:
                  name: team.a
                  labels:
                    %s/team: a
                    example.com/%s: a
                    team: %s
                    tier: "-edge"
                    Team_Ok.v2: ok
                    "": a
                    size: 3
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: %s}
                """.formatted(longPrefix, "k".repeat(64), "v".repeat(64), "n".repeat(64)), Cause.INVALID);

        assertThat(errors).extracting(ManifestError::document, ManifestError::path).containsExactlyInAnyOrder(
                tuple(0, "metadata.name"),
                tuple(0, "metadata.labels." + longPrefix + "/team"),
                tuple(0, "metadata.labels.example.com/" + "k".repeat(64)),
                tuple(0, "metadata.labels.team"),
                tuple(0, "metadata.labels.tier"),
                tuple(0, "metadata.labels."),
                tuple(0, "metadata.labels.size"),
                tuple(1, "metadata.name"));
        assertThat(errors.get(0).message()).contains("'team.a' is not a lowercase RFC 1123 label");
    }

    @Test
    void aNamespaceIsServedAsV1Only() {
        List<ManifestError> errors = rejected("""
                apiVersion: core/v1
                kind: Namespace
                metadata: {name: team-a}
                """, Cause.INVALID);

        assertThat(errors).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("apiVersion");
            assertThat(e.message()).contains("supported apiVersions for Namespace: v1");
        });
    }

    @Test
    void tolerationsFollowTheResourceFlavorSchemaRules() {
        List<ManifestError> errors = rejected("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: rf}
                spec:
                  tolerations:
                  - {operator: Equal, value: x}
                  - {key: a, operator: Exists, value: x}
                  - {key: a, effect: NoSchedule, tolerationSeconds: 5}
                """, Cause.INVALID);

        assertThat(errors).extracting(ManifestError::path).containsExactly(
                "spec.tolerations[0].operator", "spec.tolerations[1].value", "spec.tolerations[2].tolerationSeconds");
    }

    @Test
    void anEmptyBodyIsMalformed() {
        assertThat(rejected("# nothing here\n---\n", Cause.MALFORMED)).singleElement()
                .extracting(ManifestError::document).isEqualTo(-1);
    }

    private DecodedDocument single(String yaml) {
        List<DecodedDocument> documents = parse(yaml);
        assertThat(documents).hasSize(1);
        return documents.get(0);
    }

    private List<DecodedDocument> parse(String yaml) {
        return parser.parse(bytes(yaml), Format.YAML);
    }

    private List<ManifestError> rejected(String yaml, Cause cause) {
        var rejected = catchThrowableOfType(ManifestRejectedException.class, () -> parse(yaml));
        assertThat(rejected).as("rejected").isNotNull();
        assertThat(rejected.rejection()).as("cause of %s", rejected.errors()).isEqualTo(cause);
        return rejected.errors();
    }

    private static List<String> names(List<DecodedDocument> documents) {
        return documents.stream().map(d -> d.manifest().name()).toList();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
