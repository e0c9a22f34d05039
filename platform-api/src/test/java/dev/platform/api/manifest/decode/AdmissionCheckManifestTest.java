package dev.platform.api.manifest.decode;

import dev.platform.api.manifest.AdmissionCheckManifest;
import dev.platform.api.manifest.ClusterQueueManifest;
import dev.platform.api.manifest.ClusterQueueManifest.AdmissionCheckRule;
import dev.platform.api.manifest.DecodedDocument;
import dev.platform.api.manifest.ManifestError;
import dev.platform.api.manifest.ManifestLimits;
import dev.platform.api.manifest.ManifestParser.Format;
import dev.platform.api.manifest.ManifestRejectedException;
import dev.platform.api.manifest.ProvisioningRequestConfigManifest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Kueue's AdmissionCheck and ProvisioningRequestConfig, and a ClusterQueue's checks, in v1beta1 and v1beta2. */
class AdmissionCheckManifestTest {

    private final KubernetesManifestParser parser = new KubernetesManifestParser(ManifestLimits.DEFAULT);

    private static final String QUOTA = """
              resourceGroups:
              - coveredResources: [google.com/tpu]
                flavors:
                - name: flex
                  resources: [{name: google.com/tpu, nominalQuota: 64}]
            """;

    @Test
    void aDwsSetupDecodesWithKueuesDefaults() {
        List<DecodedDocument> docs = parse("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: dws-prov}
                spec:
                  controllerName: kueue.x-k8s.io/provisioning-request
                  parameters: {apiGroup: kueue.x-k8s.io, kind: ProvisioningRequestConfig, name: dws-config}
                ---
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ProvisioningRequestConfig
                metadata: {name: dws-config}
                spec:
                  provisioningClassName: queued-provisioning.gke.io
                  managedResources: [google.com/tpu]
                  parameters: {maxRunDurationSeconds: "3600"}
                  retryStrategy: {backoffLimitCount: 2}
                """);
        AdmissionCheckManifest check = (AdmissionCheckManifest) docs.get(0).manifest();
        assertThat(check.provisioning()).isTrue();
        assertThat(check.parameters().name()).isEqualTo("dws-config");
        ProvisioningRequestConfigManifest config = (ProvisioningRequestConfigManifest) docs.get(1).manifest();
        assertThat(config.provisioningClassName()).isEqualTo("queued-provisioning.gke.io");
        assertThat(config.parameters()).isEqualTo(Map.of("maxRunDurationSeconds", "3600"));
        assertThat(config.retryStrategy()).isEqualTo(new ProvisioningRequestConfigManifest.RetryStrategy(2, 60, 1800));
        assertThat(config.needsRequest(List.of("cpu"))).isFalse();
        assertThat(config.needsRequest(List.of("cpu", "google.com/tpu"))).isTrue();
        assertThat(docs).allSatisfy(d -> assertThat(d.warnings()).isEmpty());
    }

    @Test
    void v1beta1ChecksApplyToEveryFlavorAndTheStrategyNamesItsFlavors() {
        ClusterQueueManifest v1beta1 = (ClusterQueueManifest) parse("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  admissionChecks: [dws-prov]
                """ + QUOTA).get(0).manifest();
        assertThat(v1beta1.admissionChecks()).containsExactly(new AdmissionCheckRule("dws-prov", List.of()));

        ClusterQueueManifest v1beta2 = (ClusterQueueManifest) parse("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  admissionChecksStrategy:
                    admissionChecks:
                    - {name: dws-prov, onFlavors: [flex]}
                """ + QUOTA).get(0).manifest();
        assertThat(v1beta2.admissionChecks()).containsExactly(new AdmissionCheckRule("dws-prov", List.of("flex")));
    }

    @Test
    void checksNamedBothWaysOrInV1beta2sRemovedFieldAreRefused() {
        assertThat(rejected("""
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  admissionChecks: [a]
                  admissionChecksStrategy: {admissionChecks: [{name: b}]}
                """ + QUOTA)).extracting(ManifestError::message)
                .contains("either admissionChecks or admissionChecksStrategy can be set, but not both");
        assertThat(rejected("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ClusterQueue
                metadata: {name: cq}
                spec:
                  admissionChecks: [a]
                """ + QUOTA)).extracting(ManifestError::path).contains("spec.admissionChecks");
        assertThat(rejected("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: AdmissionCheck
                metadata: {name: a}
                spec: {}
                """)).extracting(ManifestError::path).contains("spec.controllerName");
        assertThat(rejected("""
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: ProvisioningRequestConfig
                metadata: {name: c}
                spec:
                  provisioningClassName: queued-provisioning.gke.io
                  retryStrategy: {backoffBaseSeconds: -1}
                """)).extracting(ManifestError::path).contains("spec.retryStrategy.backoffBaseSeconds");
    }

    private List<DecodedDocument> parse(String yaml) {
        return parser.parse(yaml.getBytes(StandardCharsets.UTF_8), Format.YAML);
    }

    private List<ManifestError> rejected(String yaml) {
        var rejected = catchThrowableOfType(ManifestRejectedException.class, () -> parse(yaml));
        assertThat(rejected).as("rejected").isNotNull();
        return rejected.errors();
    }
}
